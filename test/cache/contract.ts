/**
 * The answer-cache contract: every AnswerCache must pass these tests.
 * Run by memory.test.ts always and redis.test.ts when REDIS_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerCache } from '../../src/ports/answer-cache.js';

export interface CacheHarness {
  cache: AnswerCache;
  /** A TTL short enough to wait out: the memory clock is advanced past it, Redis is polled in real time. */
  shortTtlMs: number;
  /** Let `ms` pass (advance the injected clock, or nothing for a real clock). */
  elapse(ms: number): Promise<void>;
}

const answer = {
  answer: 'Shipping takes 3–5 days [1]. Returns are free within 30 days [2].',
  sources: [
    { sourceName: 'faq.md', recordId: 'rec_1', passage: 'Shipping takes 3–5 days.', score: 0.91 },
    { sourceName: 'policies.json', recordId: 'rec_2', passage: 'Returns are free within 30 days — «sans frais» 🚚.', score: 0.5 },
  ],
  grounded: true,
  nested: { list: [1, 2.5, -3, null, true, 'x'], empty: {} },
};

export function answerCacheContract(make: () => Promise<CacheHarness>): void {
  let h: CacheHarness;
  const key = () => `k:${randomUUID()}`;

  beforeAll(async () => {
    h = await make();
  });
  afterAll(async () => {
    await h?.cache.close();
  });

  describe('get and set', () => {
    it('misses on an unknown key', async () => {
      expect(await h.cache.get(key())).toBeUndefined();
    });

    it('round-trips JSON values exactly', async () => {
      const values: unknown[] = [answer, 'plain text', 42, 0, false, null, [], { a: '' }];
      const keys = values.map(() => key());
      for (const [i, value] of values.entries()) await h.cache.set(keys[i] as string, value, 60_000);
      for (const [i, value] of values.entries()) expect(await h.cache.get(keys[i] as string)).toEqual(value);
    });

    it('keeps a snapshot: changing what was stored, or trying to change what was read, changes nothing', async () => {
      const k = key();
      const value = structuredClone(answer);
      await h.cache.set(k, value, 60_000);
      value.sources.pop();
      const first = await h.cache.get<typeof answer>(k);
      // What is read is a copy (Redis) or frozen (in process, where this throws): either way the cache keeps its value.
      try {
        first?.sources.pop();
        if (first) first.answer = 'changed';
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
      }
      expect(await h.cache.get(k)).toEqual(answer);
    });

    it('overwrites a key and keeps keys apart', async () => {
      const [a, b] = [key(), key()];
      await h.cache.set(a, 'one', 60_000);
      await h.cache.set(a, 'two', 60_000);
      await h.cache.set(b, 'other', 60_000);
      expect(await h.cache.get(a)).toBe('two');
      expect(await h.cache.get(b)).toBe('other');
    });

    it('stores nothing with a TTL of 0 or less, or for a value with no JSON form', async () => {
      const [a, b, c] = [key(), key(), key()];
      await h.cache.set(a, 'x', 0);
      await h.cache.set(b, 'x', -5);
      await h.cache.set(c, undefined, 60_000);
      expect(await h.cache.get(a)).toBeUndefined();
      expect(await h.cache.get(b)).toBeUndefined();
      expect(await h.cache.get(c)).toBeUndefined();
    });
  });

  describe('expiry', () => {
    it('serves an entry within its TTL and forgets it after', async () => {
      const k = key();
      await h.cache.set(k, answer, h.shortTtlMs);
      expect(await h.cache.get(k)).toEqual(answer);
      await h.elapse(h.shortTtlMs);
      await expect.poll(() => h.cache.get(k), { timeout: 2_000, interval: 10 }).toBeUndefined();
    });

    it('a re-set renews the TTL', async () => {
      const k = key();
      await h.cache.set(k, 'old', h.shortTtlMs);
      await h.cache.set(k, 'new', 60_000);
      await h.elapse(h.shortTtlMs);
      await new Promise((resolve) => setTimeout(resolve, h.shortTtlMs + 20));
      expect(await h.cache.get(k)).toBe('new');
    });
  });
}
