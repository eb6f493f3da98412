/**
 * ClientLimit (src/limits/client-limit.ts): a request's whole-service limit, taken exactly once,
 * either together with other work (`settle`) or on its own (`take`); its refusal is the
 * `rate_limited` problem naming the limit.
 */
import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../src/adapters/limits/memory.js';
import { isDomainError } from '../../src/errors.js';
import { ClientLimit } from '../../src/limits/client-limit.js';
import { clientRules } from '../../src/limits/rules.js';
import type { LimitDecision } from '../../src/ports/rate-limiter.js';

const now = Date.UTC(2026, 10, 25, 12);

function setUp(ratePerSecond = 2) {
  const limiter = new MemoryRateLimiter();
  const decisions: LimitDecision[] = [];
  const make = () => new ClientLimit({ rules: clientRules({ ipRatePerSecond: ratePerSecond }, { ip: '10.0.0.1' }), ratePerSecond, limiter, onDecision: (d) => decisions.push(d) });
  return { limiter, decisions, make };
}

describe('ClientLimit', () => {
  it('take() consumes once however often it is called, and reports the decision once', async () => {
    const { decisions, make } = setUp();
    const limit = make();
    expect(limit.taken).toBe(false);
    await limit.take(now);
    await limit.take(now);
    expect(limit.taken).toBe(true);
    expect(decisions).toHaveLength(1);
    expect(decisions[0]?.states[0]).toMatchObject({ name: 'ip', remaining: 1 });
  });

  it('a decision settled from elsewhere stands: take() then takes nothing, and a second settle is a bug', async () => {
    const { limiter, decisions, make } = setUp();
    const limit = make();
    const shared = await limiter.consume(limit.rules, now);
    limit.settle(shared);
    await limit.take(now);
    expect(decisions).toEqual([shared]);
    // One unit was used: the bucket of two has one left.
    expect((await limiter.consume(limit.rules, now)).states[0]?.remaining).toBe(0);
    expect(() => limit.settle(shared)).toThrow(/already taken/);
  });

  it('a refusal throws rate_limited naming the limit, with its decision for the headers', async () => {
    const { decisions, make } = setUp(1);
    await make().take(now);
    const refused = make();
    const error = await refused.take(now).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isDomainError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'rate_limited', extra: { limit: 'ip' } });
    expect((error as Error).message).toMatch(/allows 1 per second/);
    expect(refused.taken).toBe(true);
    expect(decisions.map((d) => d.allowed)).toEqual([true, false]);
  });
});
