import { describe, expect, it } from 'vitest';
import { MemoryAnswerCache } from '../../src/adapters/cache/memory.js';
import { answerCacheContract } from './contract.js';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('memory answer cache contract', () => {
  answerCacheContract(async () => {
    const c = clock();
    return {
      cache: new MemoryAnswerCache({ now: c.now }),
      shortTtlMs: 50,
      elapse: async (ms) => {
        c.advance(ms);
      },
    };
  });
});

describe('memory answer cache bounds', () => {
  it('expires exactly at the TTL on the injected clock', async () => {
    const c = clock();
    const cache = new MemoryAnswerCache({ now: c.now });
    await cache.set('k', 'v', 60_000);
    c.advance(59_999);
    expect(await cache.get('k')).toBe('v');
    c.advance(1);
    expect(await cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0); // an expired entry found on read is dropped
  });

  it('evicts the least recently used entry beyond maxEntries', async () => {
    const cache = new MemoryAnswerCache({ maxEntries: 3 });
    for (const k of ['a', 'b', 'c']) await cache.set(k, k, 60_000);
    expect(await cache.get('a')).toBe('a'); // a is now the most recent; b the least
    await cache.set('d', 'd', 60_000);
    expect(cache.size).toBe(3);
    expect(await cache.get('b')).toBeUndefined();
    for (const k of ['a', 'c', 'd']) expect(await cache.get(k)).toBe(k);
    await cache.set('c', 'c2', 60_000); // a write also counts as use: a is now the least recent
    await cache.set('e', 'e', 60_000);
    expect(await cache.get('a')).toBeUndefined();
    expect(await cache.get('c')).toBe('c2');
  });

  it('bounds the stored characters too, and skips a value larger than the bound', async () => {
    const cache = new MemoryAnswerCache({ maxChars: 30 });
    await cache.set('a', 'x'.repeat(10), 60_000); // 12 characters of JSON
    await cache.set('b', 'y'.repeat(10), 60_000);
    await cache.set('c', 'z'.repeat(10), 60_000); // 36 > 30: a goes
    expect(await cache.get('a')).toBeUndefined();
    expect(await cache.get('b')).toBe('y'.repeat(10));
    await cache.set('huge', 'h'.repeat(100), 60_000);
    expect(await cache.get('huge')).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it('skips values with no JSON form instead of throwing', async () => {
    const cache = new MemoryAnswerCache();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(cache.set('cyclic', cyclic, 60_000)).resolves.toBeUndefined();
    await expect(cache.set('big', 10n, 60_000)).resolves.toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("makes an entry's value on its first read and then hands every reader that same frozen value", async () => {
    const cache = new MemoryAnswerCache();
    const stored = { answer: 'a', sources: [{ recordId: 'r1', score: 1.5 }], grounded: true };
    await cache.set('k', stored, 60_000);
    const [source] = stored.sources;
    if (source) source.recordId = 'changed after the write';
    const first = await cache.get<typeof stored>('k');
    const second = await cache.get<typeof stored>('k');
    expect(first).toEqual({ answer: 'a', sources: [{ recordId: 'r1', score: 1.5 }], grounded: true });
    // One object for every hit (the query route keys its serialised body on it) and frozen all through.
    expect(second).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first?.sources) && Object.isFrozen(first?.sources[0])).toBe(true);
    // A new write is a new value.
    await cache.set('k', { ...stored, answer: 'b' }, 60_000);
    expect((await cache.get<typeof stored>('k'))?.answer).toBe('b');
  });

  it('handles 10,000 entries by default', async () => {
    const cache = new MemoryAnswerCache();
    for (let i = 0; i < 10_050; i++) await cache.set(`k${i}`, i, 60_000);
    expect(cache.size).toBe(10_000);
    expect(await cache.get('k49')).toBeUndefined();
    expect(await cache.get('k50')).toBe(50);
    await cache.close();
    expect(cache.size).toBe(0);
  });
});
