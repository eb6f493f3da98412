/**
 * The rate-limiter contract against a real Redis (REDIS_URL). Each run works
 * under its own `gw:rl:test:<uuid>:` namespace and deletes only that namespace:
 * other suites share the server.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LimitRule } from '../../src/ports/rate-limiter.js';
import { RedisRateLimiter } from '../../src/adapters/limits/redis.js';
import { describeIf, redis } from '../support/requirements.js';
import { rateLimiterContract } from './contract.js';

const url = process.env.REDIS_URL ?? '';
const prefix = `gw:rl:test:${randomUUID()}:`;

async function keysUnder(client: Redis, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

describeIf(redis, 'Redis rate limiter contract', () => {
  rateLimiterContract({ make: async () => new RedisRateLimiter(url, { keyPrefix: prefix }), sharedState: true });

  afterAll(async () => {
    const client = new Redis(url);
    const keys = await keysUnder(client, `${prefix}*`);
    if (keys.length > 0) await client.del(...keys);
    await client.quit();
  });
});

describeIf(redis, 'Redis rate limiter keys and connections', () => {
  let shared: Redis;
  const ns = `${prefix}own:`;

  beforeAll(() => {
    shared = new Redis(url);
  });
  afterAll(async () => {
    const keys = await keysUnder(shared, `${ns}*`);
    if (keys.length > 0) await shared.del(...keys);
    await shared.quit();
  });

  it('pushes a partition of hundreds of thousands of hits after an outage (its hits are not spread into one call)', async () => {
    // Its own namespace: the next test lists every key under `ns`.
    const own = `${prefix}raise:`;
    const limiter = new RedisRateLimiter(shared, { keyPrefix: own });
    const now = Date.now();
    const hits = Array.from({ length: 300_000 }, (_, i) => now - 300_000 + i);
    const added = await limiter.raise([{ key: 'busy', kind: 'sliding', hits, count: hits.length, expiresAt: now + 60_000, windowMs: 600_000 }], now);
    expect(added).toBe(hits.length);
    expect(await shared.zcard(`${own}busy`)).toBe(hits.length);
    // Never lowers, never adds twice.
    expect(await limiter.raise([{ key: 'busy', kind: 'sliding', hits, count: hits.length, expiresAt: now + 60_000, windowMs: 600_000 }], now)).toBe(0);
    await shared.del(`${own}busy`);
  });

  it('gives every key an expiry: the window for logs, the end of the UTC day plus a margin for counters', async () => {
    const limiter = new RedisRateLimiter(shared, { keyPrefix: ns });
    const now = Date.now();
    const rules: LimitRule[] = [
      { name: 'ip', key: '192.0.2.1', limit: 30, kind: 'sliding', windowMs: 1_000 },
      { name: 'minute', key: 'kb_1', limit: 10, kind: 'sliding', windowMs: 60_000 },
      { name: 'day', key: 'kb_1', limit: 100, kind: 'utc-day', windowMs: 0 },
    ];
    expect((await limiter.consume(rules, now)).allowed).toBe(true);
    const dayKey = `${ns}day:kb_1:${new Date(now).toISOString().slice(0, 10)}`;
    expect((await keysUnder(shared, `${ns}*`)).sort()).toEqual([dayKey, `${ns}ip:192.0.2.1`, `${ns}minute:kb_1`].sort());
    const ttl = async (key: string) => shared.pttl(key);
    expect(await ttl(`${ns}ip:192.0.2.1`)).toBeGreaterThan(0);
    expect(await ttl(`${ns}ip:192.0.2.1`)).toBeLessThanOrEqual(1_000);
    expect(await ttl(`${ns}minute:kb_1`)).toBeGreaterThan(59_000);
    expect(await ttl(`${ns}minute:kb_1`)).toBeLessThanOrEqual(60_000);
    const untilMidnight = (Math.floor(now / 86_400_000) + 1) * 86_400_000 - now;
    expect(await ttl(dayKey)).toBeGreaterThan(untilMidnight + 3_600_000 - 5_000);
    expect(await ttl(dayKey)).toBeLessThanOrEqual(untilMidnight + 3_600_000);
    await limiter.close();
    expect(shared.status).toBe('ready'); // a client it did not create stays open
  });

  it('uses gw:rl: by default and closes a connection it opened', async () => {
    const limiter = new RedisRateLimiter(url);
    const key = `test-${randomUUID()}`;
    await limiter.consume([{ name: 'ip', key, limit: 1, kind: 'sliding', windowMs: 1_000 }]);
    expect(await shared.exists(`gw:rl:ip:${key}`)).toBe(1);
    await shared.del(`gw:rl:ip:${key}`);
    await limiter.close();
    await expect(limiter.consume([{ name: 'ip', key, limit: 1, kind: 'sliding', windowMs: 1_000 }])).rejects.toThrow();
  });

  it('lets idle logs vanish on their own', async () => {
    const limiter = new RedisRateLimiter(shared, { keyPrefix: ns });
    await limiter.consume([{ name: 'ip', key: 'short', limit: 5, kind: 'sliding', windowMs: 50 }]);
    await expect.poll(() => shared.exists(`${ns}ip:short`), { timeout: 2_000, interval: 20 }).toBe(0);
  });
});
