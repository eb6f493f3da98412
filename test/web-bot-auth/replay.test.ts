/**
 * Replay stores: the in-process one (TTL, bounded size), the Redis one
 * (`SET NX PX`, against REDIS_URL when set), and the layered store that keeps
 * refusing same-instance replays while Redis is down.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryReplayStore } from '../../src/adapters/replay/memory.js';
import type { ReplayStore } from '../../src/ports/replay.js';
import { LayeredReplayStore, RedisReplayStore } from '../../src/adapters/replay/redis.js';
import { describeIf, redis } from '../support/requirements.js';

describe('memory replay store', () => {
  it('refuses a key until its TTL has passed', async () => {
    let now = 0;
    const store = new MemoryReplayStore({ now: () => now });
    expect(await store.claim('a', 1000)).toBe(true);
    expect(await store.claim('a', 1000)).toBe(false);
    expect(await store.claim('b', 1000)).toBe(true);
    now = 999;
    expect(await store.claim('a', 1000)).toBe(false);
    now = 1000;
    expect(await store.claim('a', 1000)).toBe(true);
  });

  it('stays bounded, dropping expired and then oldest keys', async () => {
    let now = 0;
    const store = new MemoryReplayStore({ now: () => now, maxEntries: 3 });
    for (const key of ['a', 'b', 'c', 'd']) await store.claim(key, 10_000);
    expect(store.size).toBe(3);
    expect(await store.claim('a', 10_000)).toBe(true); // evicted, so accepted again
    now = 20_000;
    await store.claim('e', 10_000);
    expect(store.size).toBe(1);
  });
});

describe('layered replay store', () => {
  it('refuses same-instance replays while the shared store fails, and reports the failure', async () => {
    const failing: ReplayStore = { claim: () => Promise.reject(new Error('redis down')), close: async () => {} };
    const onError = vi.fn();
    const store = new LayeredReplayStore(new MemoryReplayStore(), failing, onError);
    expect(await store.claim('n1', 60_000)).toBe(true);
    expect(await store.claim('n1', 60_000)).toBe(false);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('refuses a key another instance claimed', async () => {
    const shared = new MemoryReplayStore();
    const one = new LayeredReplayStore(new MemoryReplayStore(), shared, () => {});
    const two = new LayeredReplayStore(new MemoryReplayStore(), shared, () => {});
    expect(await one.claim('n2', 60_000)).toBe(true);
    expect(await two.claim('n2', 60_000)).toBe(false);
  });
});

describeIf(redis, 'Redis replay store', () => {
  const prefix = `gw:replay:test:${randomUUID()}:`;
  let client: Redis;
  beforeAll(() => {
    client = new Redis(process.env.REDIS_URL ?? '');
  });
  afterAll(async () => {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(...keys);
    await client.quit();
  });

  it('claims with SET NX PX: once per key, until it expires', async () => {
    const store = new RedisReplayStore(client, prefix);
    expect(await store.claim('k', 60_000)).toBe(true);
    expect(await store.claim('k', 60_000)).toBe(false);
    const ttl = await client.pttl(`${prefix}k`);
    expect(ttl).toBeGreaterThan(59_000);
    expect(await store.claim('short', 50)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await store.claim('short', 50)).toBe(true);
  });
});
