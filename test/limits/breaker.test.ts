/**
 * Redis outage (issue 11 item 7): the limiter, the answer cache and the replay
 * store share one RedisBreaker over one connection, as compose.ts wires them.
 * A real redis-server is started, loaded, killed (SIGKILL) and restarted empty
 * on the same port. Bounds are generous: this runs on a busy machine.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RedisAnswerCache } from '../../src/adapters/cache/redis.js';
import { FallbackRateLimiter } from '../../src/adapters/limits/fallback.js';
import { MemoryRateLimiter } from '../../src/adapters/limits/memory.js';
import type { LimitRule } from '../../src/ports/rate-limiter.js';
import { RedisRateLimiter } from '../../src/adapters/limits/redis.js';
import { RedisBreaker, type BreakerState } from '../../src/adapters/redis-breaker.js';
import { MemoryReplayStore } from '../../src/adapters/replay/memory.js';
import { LayeredReplayStore, RedisReplayStore } from '../../src/adapters/replay/redis.js';
import { describeIf } from '../support/requirements.js';
import { type RedisProcess, redisServerAvailable, startRedis } from '../support/redis-process.js';

const limit = 20;
const rules: LimitRule[] = [
  { name: 'minute', key: 'kb_outage', limit, kind: 'sliding', windowMs: 60_000 },
  { name: 'day', key: 'kb_outage', limit: 1000, kind: 'utc-day', windowMs: 0 },
];

describeIf(redisServerAvailable, 'Redis outage behind the circuit breaker', () => {
  let server: RedisProcess;
  let client: Redis;
  let breaker: RedisBreaker;
  let limiter: FallbackRateLimiter;
  let cache: RedisAnswerCache;
  let replay: LayeredReplayStore;
  const transitions: BreakerState[] = [];
  const reported: unknown[] = [];

  beforeAll(async () => {
    server = await startRedis();
    // The options compose.ts gives the shared connection.
    client = new Redis(server.url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, connectTimeout: 5000, commandTimeout: 1000 });
    client.on('error', () => {});
    breaker = new RedisBreaker(client, { onStateChange: (s) => transitions.push(s.state) });
    limiter = new FallbackRateLimiter(new RedisRateLimiter(client), new MemoryRateLimiter(), (e) => reported.push(e), { breaker });
    cache = new RedisAnswerCache(client, { breaker, onError: (e) => reported.push(e) });
    replay = new LayeredReplayStore(new MemoryReplayStore(), new RedisReplayStore(client), (e) => reported.push(e), { breaker });
  });

  afterAll(async () => {
    breaker?.close();
    client?.disconnect();
    await server?.stop();
  });

  it('fails fast while Redis is down, keeps the limit enforced, and resynchronises when it restarts empty', async () => {
    // Load while Redis is up: 15 of the 20 allowed queries, a cached answer, a nonce.
    for (let i = 0; i < 15; i++) expect((await limiter.consume(rules)).allowed).toBe(true);
    await cache.set('answer', { text: 'hello' }, 60_000);
    expect(await cache.get('answer')).toEqual({ text: 'hello' });
    expect(breaker.status().state).toBe('closed');

    await server.kill();

    // Down: the breaker opens (connection closed, or three failed commands) and from then on every
    // call is answered in process without waiting on Redis; the limit holds at 20 in total (no fresh
    // allowance). How fast that is belongs to a benchmark, not to this test.
    const during: boolean[] = [];
    for (let i = 0; i < 15; i++) {
      during.push((await limiter.consume(rules)).allowed);
      expect(await cache.get('answer')).toBeUndefined();
    }
    expect(during.filter(Boolean)).toHaveLength(5);
    expect(breaker.status().state).not.toBe('closed');
    expect(breaker.status().opened).toBeGreaterThanOrEqual(1);
    expect(await replay.claim('nonce-during-outage', 60_000)).toBe(true);
    expect(await replay.claim('nonce-during-outage', 60_000)).toBe(false);
    // The breaker reports the outage once; the adapters do not log every command.
    expect(reported.length).toBeLessThanOrEqual(3);

    await server.restart();
    await expect.poll(() => breaker.status().state, { timeout: 15_000, interval: 50 }).toBe('closed');

    // Redis came back empty, but the counts kept in process were pushed to it.
    expect(await client.zcard('gw:rl:minute:kb_outage')).toBe(limit);
    expect((await limiter.consume(rules)).allowed).toBe(false);
    // Another instance (its own memory, same Redis) refuses the nonce used during the outage.
    const other = new LayeredReplayStore(new MemoryReplayStore(), new RedisReplayStore(client), () => {});
    expect(await other.claim('nonce-during-outage', 60_000)).toBe(false);
    // And the cache works again.
    await cache.set('answer', { text: 'again' }, 60_000);
    expect(await cache.get('answer')).toEqual({ text: 'again' });
    expect(transitions).toContain('open');
    expect(transitions.at(-1)).toBe('closed');
  }, 60_000);
});
