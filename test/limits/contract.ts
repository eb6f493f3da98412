/**
 * The rate-limiter contract: every RateLimiter must pass these tests.
 * Run by memory.test.ts always and redis.test.ts when REDIS_URL is set.
 * Every test uses fresh keys, so tests never share a partition.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LimitDecision, LimitRule, RateLimiter } from '../../src/ports/rate-limiter.js';
import { queryRules } from '../../src/limits/rules.js';

const fresh = () => randomUUID();
const minute = (key: string, limit = 10): LimitRule => ({ name: 'minute', key, limit, kind: 'sliding', windowMs: 60_000 });
const day = (key: string, limit = 100): LimitRule => ({ name: 'day', key, limit, kind: 'utc-day', windowMs: 0 });
const ip = (key: string, limit = 30): LimitRule => ({ name: 'ip', key, limit, kind: 'sliding', windowMs: 1_000 });

const T0 = Date.UTC(2031, 4, 6, 12, 0, 0, 0); // a Tuesday noon, UTC
const MIDNIGHT = Date.UTC(2031, 4, 7);

export interface LimiterHarness {
  /** A limiter; with `sharedState`, each call is a separate instance (a separate "server") on the same state. */
  make(): Promise<RateLimiter>;
  /** Whether two instances share state (Redis). Otherwise the "two servers" test uses one instance twice. */
  sharedState: boolean;
}

export function rateLimiterContract(harness: LimiterHarness): void {
  let limiter: RateLimiter;
  let other: RateLimiter;

  beforeAll(async () => {
    limiter = await harness.make();
    other = harness.sharedState ? await harness.make() : limiter;
  });
  afterAll(async () => {
    await limiter?.close();
    if (other !== limiter) await other?.close();
  });

  const allowedCount = (decisions: LimitDecision[]) => decisions.filter((d) => d.allowed).length;

  describe('exact under concurrency', () => {
    it('40 parallel calls against a limit of 10 → exactly 10 allowed', async () => {
      const rule = minute(fresh());
      const decisions = await Promise.all(Array.from({ length: 40 }, () => limiter.consume([rule])));
      expect(allowedCount(decisions)).toBe(10);
      for (const d of decisions.filter((x) => !x.allowed)) expect(d.refused?.name).toBe('minute');
      expect(
        decisions
          .filter((d) => d.allowed)
          .map((d) => d.states[0]?.remaining ?? -1)
          .sort((a, b) => a - b),
      ).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it('holds across two limiter instances ("two servers") sharing the same state', async () => {
      const rules = queryRules({ queryRatePerMinute: 10, queryQuotaPerDay: 100 }, fresh());
      const decisions = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? limiter : other).consume(rules, T0)));
      expect(allowedCount(decisions)).toBe(10);
      const after = await other.consume(rules, T0);
      expect(after.states.find((s) => s.name === 'day')?.remaining).toBe(90); // refusals took nothing from the day
    });

    it('counts requests in the same millisecond separately', async () => {
      const rule = minute(fresh(), 5);
      const decisions = await Promise.all(Array.from({ length: 8 }, () => limiter.consume([rule], T0)));
      expect(allowedCount(decisions)).toBe(5);
    });
  });

  describe('sliding window', () => {
    it('frees each slot exactly one window after it was taken', async () => {
      const rule = minute(fresh(), 3);
      for (const [i, at] of [T0, T0 + 1_000, T0 + 2_000].entries()) {
        const d = await limiter.consume([rule], at);
        expect(d).toMatchObject({ allowed: true, retryAfterMs: 0 });
        expect(d.states).toEqual([{ name: 'minute', limit: 3, remaining: 2 - i, resetMs: T0 + 60_000 - at, windowSeconds: 60 }]);
      }
      const full = await limiter.consume([rule], T0 + 10_000);
      expect(full).toMatchObject({ allowed: false, retryAfterMs: 50_000, refused: { name: 'minute', remaining: 0, resetMs: 50_000 } });
      expect((await limiter.consume([rule], T0 + 59_999)).retryAfterMs).toBe(1);
      const freed = await limiter.consume([rule], T0 + 60_000);
      expect(freed.allowed).toBe(true);
      expect(freed.states[0]).toMatchObject({ remaining: 0, resetMs: 1_000 }); // next to leave: the unit taken at T0+1s
      expect(await limiter.consume([rule], T0 + 60_999)).toMatchObject({ allowed: false, retryAfterMs: 1 });
      expect((await limiter.consume([rule], T0 + 61_000)).allowed).toBe(true);
    });

    it('applies the 1 s ip window', async () => {
      const rule = ip(fresh(), 3);
      for (const at of [T0, T0 + 100, T0 + 200]) expect((await limiter.consume([rule], at)).allowed).toBe(true);
      expect(await limiter.consume([rule], T0 + 300)).toMatchObject({ allowed: false, retryAfterMs: 700, refused: { name: 'ip', windowSeconds: 1 } });
      expect((await limiter.consume([rule], T0 + 1_000)).allowed).toBe(true);
      // After a long pause the window is empty again: the whole quota is back.
      expect((await limiter.consume([rule], T0 + 10_000)).states[0]).toMatchObject({ remaining: 2, resetMs: 1_000 });
    });
  });

  describe('daily quota (UTC calendar day)', () => {
    it('refuses at 23:59:59.999 UTC when exhausted and allows at 00:00:00.000 UTC', async () => {
      const rule = day(fresh(), 3);
      for (const [i, at] of [T0, T0 + 1, T0 + 2].entries()) {
        const d = await limiter.consume([rule], at);
        expect(d.states).toEqual([{ name: 'day', limit: 3, remaining: 2 - i, resetMs: MIDNIGHT - at, windowSeconds: 86_400 }]);
      }
      const last = await limiter.consume([rule], MIDNIGHT - 1);
      expect(last).toMatchObject({ allowed: false, retryAfterMs: 1, refused: { name: 'day', remaining: 0, resetMs: 1 } });
      const next = await limiter.consume([rule], MIDNIGHT);
      expect(next).toMatchObject({ allowed: true, states: [{ name: 'day', remaining: 2, resetMs: 86_400_000 }] });
    });

    it('counts the whole day, however the calls are spread', async () => {
      const rule = day(fresh(), 2);
      expect((await limiter.consume([rule], MIDNIGHT - 86_400_000)).allowed).toBe(true); // 00:00:00.000
      expect((await limiter.consume([rule], T0)).allowed).toBe(true);
      expect(await limiter.consume([rule], T0 + 3_600_000)).toMatchObject({ allowed: false, retryAfterMs: MIDNIGHT - T0 - 3_600_000 });
    });
  });

  describe('atomic across rules', () => {
    it('a refusal by the daily quota takes no minute slot', async () => {
      const key = fresh();
      const rules = [minute(key, 10), day(key, 2)];
      expect((await limiter.consume(rules, T0)).allowed).toBe(true);
      expect((await limiter.consume(rules, T0 + 1)).allowed).toBe(true);
      const refused = await limiter.consume(rules, T0 + 2);
      expect(refused).toMatchObject({ allowed: false, refused: { name: 'day' }, retryAfterMs: MIDNIGHT - T0 - 2 });
      expect(refused.states.map((s) => [s.name, s.remaining])).toEqual([
        ['minute', 8],
        ['day', 0],
      ]);
      // The minute log still holds exactly two units.
      expect((await limiter.consume([minute(key, 10)], T0 + 3)).states[0]?.remaining).toBe(7);
    });

    it('a refusal by the minute window takes nothing from the day', async () => {
      const key = fresh();
      const rules = [minute(key, 1), day(key, 5)];
      expect((await limiter.consume(rules, T0)).allowed).toBe(true);
      expect(await limiter.consume(rules, T0 + 1)).toMatchObject({ allowed: false, refused: { name: 'minute' }, retryAfterMs: 59_999 });
      expect(await limiter.consume(rules, T0 + 60_000)).toMatchObject({ allowed: true, states: [{ remaining: 0 }, { remaining: 3 }] });
    });

    it('reports the rule that frees last when several refuse, so limit and Retry-After agree', async () => {
      const key = fresh();
      const rules = [minute(key, 1), day(key, 1)];
      await limiter.consume(rules, T0);
      const d = await limiter.consume(rules, T0 + 1_000);
      expect(d).toMatchObject({ allowed: false, refused: { name: 'day' }, retryAfterMs: MIDNIGHT - T0 - 1_000 });
    });

    it('keeps the states in the order of the rules given', async () => {
      const key = fresh();
      const d = await limiter.consume([ip(key), day(key), minute(key)], T0);
      expect(d.states.map((s) => s.name)).toEqual(['ip', 'day', 'minute']);
    });
  });

  describe('disabled limits', () => {
    it('a limit of 0 is neither enforced nor reported', async () => {
      const key = fresh();
      for (let i = 0; i < 25; i++) {
        expect(await limiter.consume([minute(key, 0), day(key, 0), ip(key, 0)], T0)).toEqual({ allowed: true, states: [], retryAfterMs: 0 });
      }
      const mixed = await limiter.consume([minute(key, 0), day(key, 2)], T0);
      expect(mixed.states.map((s) => s.name)).toEqual(['day']);
      expect(await limiter.consume([], T0)).toEqual({ allowed: true, states: [], retryAfterMs: 0 });
    });
  });

  describe('input checks', () => {
    it('refuses the same partition twice in one call and a non-positive window', async () => {
      const key = fresh();
      // An in-process limiter throws at once, Redis's rejects (src/maybe-promise.ts): awaited, both refuse.
      const consume = async (rules: Parameters<RateLimiter['consume']>[0]) => limiter.consume(rules);
      await expect(consume([minute(key), minute(key)])).rejects.toThrow(RangeError);
      await expect(consume([{ ...minute(key), windowMs: 0 }])).rejects.toThrow(RangeError);
    });
  });
}
