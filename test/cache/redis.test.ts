/**
 * The answer-cache contract against a real Redis (REDIS_URL), under a unique
 * `gw:cache:test:<uuid>:` namespace that is deleted afterwards; and the
 * outage behaviour against a closed port, which needs no Redis at all.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisAnswerCache } from '../../src/adapters/cache/redis.js';
import { describeIf, redis } from '../support/requirements.js';
import { answerCacheContract } from './contract.js';

const url = process.env.REDIS_URL ?? '';
const prefix = `gw:cache:test:${randomUUID()}:`;

describeIf(redis, 'Redis answer cache contract', () => {
  // A generous deadline: on a busy machine a reply may take longer than the production 250 ms, and a
  // late `get` is a miss by design (tested below), which would fail the contract's expectations.
  answerCacheContract(async () => ({ cache: new RedisAnswerCache(url, { keyPrefix: prefix, timeoutMs: 10_000 }), shortTtlMs: 200, elapse: async () => {} }));
});

describeIf(redis, 'Redis answer cache storage', () => {
  let shared: Redis;

  beforeAll(() => {
    shared = new Redis(url);
  });
  afterAll(async () => {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await shared.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== '0');
    if (keys.length > 0) await shared.del(...keys);
    await shared.quit();
  });

  it('stores JSON text under the prefix with a PX expiry, and leaves a shared client open', async () => {
    const cache = new RedisAnswerCache(shared, { keyPrefix: prefix });
    await cache.set('answer:v1:kb:1:answer:abc', { answer: 'hi', sources: [] }, 60_000);
    expect(await shared.get(`${prefix}answer:v1:kb:1:answer:abc`)).toBe('{"answer":"hi","sources":[]}');
    const ttl = await shared.pttl(`${prefix}answer:v1:kb:1:answer:abc`);
    expect(ttl).toBeGreaterThan(59_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await cache.close();
    expect(shared.status).toBe('ready');
  });

  it('uses gw:cache: by default', async () => {
    const cache = new RedisAnswerCache(shared);
    const key = `test-${randomUUID()}`;
    await cache.set(key, 1, 5_000);
    expect(await shared.get(`gw:cache:${key}`)).toBe('1');
    await shared.del(`gw:cache:${key}`);
  });

  it('treats an unreadable stored value as a miss', async () => {
    const errors: string[] = [];
    const cache = new RedisAnswerCache(shared, { keyPrefix: prefix, onError: (_, op) => errors.push(op) });
    await shared.set(`${prefix}broken`, '{not json', 'PX', 5_000);
    expect(await cache.get('broken')).toBeUndefined();
    expect(errors).toEqual(['get']);
  });
});

describe('Redis answer cache while Redis is down', () => {
  it('misses on get and drops set, quickly and without throwing', async () => {
    const errors: string[] = [];
    const cache = new RedisAnswerCache('redis://127.0.0.1:1', {
      redisOptions: { maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: 200, retryStrategy: () => 200 },
      onError: (_, op) => errors.push(op),
    });
    const started = performance.now();
    await expect(cache.set('k', { answer: 'x' }, 60_000)).resolves.toBeUndefined();
    await expect(cache.get('k')).resolves.toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(errors).toContain('get');
    expect(errors).toContain('set');
    await cache.close();
  });

  it('gives up on a server that does not answer within the deadline', async () => {
    const { createServer } = await import('node:net');
    const silent = createServer(() => {}); // accepts, never replies
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const errors: unknown[] = [];
    const cache = new RedisAnswerCache(`redis://127.0.0.1:${port}`, { timeoutMs: 100, onError: (err) => errors.push(err) });
    await new Promise((resolve) => setTimeout(resolve, 50)); // connected, so commands are sent, not refused
    const started = performance.now();
    expect(await cache.get('k')).toBeUndefined();
    await cache.set('k', 'v', 1_000);
    expect(performance.now() - started).toBeLessThan(600);
    expect(String(errors[0])).toMatch(/no reply within 100 ms/);
    await cache.close();
    silent.close();
  });
});
