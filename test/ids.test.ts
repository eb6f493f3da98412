/**
 * Identifiers and secrets (src/ids.ts): base62 text of the asked entropy, uniformly distributed
 * (rejection sampling: `byte % 62` alone would favour the first eight digits by a quarter), never
 * repeating, including across the refills of the pooled random bytes.
 */
import { describe, expect, it } from 'vitest';
import { newId, randomBase62, uniqueToken } from '../src/ids.js';

const BASE62 = /^[0-9A-Za-z]+$/;

describe('randomBase62', () => {
  it('has the length that holds the asked bits, in base62 digits', () => {
    expect(randomBase62(128)).toHaveLength(22);
    expect(randomBase62(256)).toHaveLength(43);
    expect(randomBase62(96)).toHaveLength(17);
    expect(randomBase62()).toMatch(BASE62);
  });

  it('draws every digit equally often, over many refills of the random pool', () => {
    const counts = new Map<string, number>();
    const draws = 30_000;
    for (let i = 0; i < draws; i++) for (const c of randomBase62(128)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = (draws * 22) / 62;
    // ~10,600 per digit: a biased digit (+25%) is far outside ±6%, chance alone (σ ≈ 1%) never is.
    for (const [digit, count] of counts) expect(Math.abs(count - expected) / expected, `digit ${digit}`).toBeLessThan(0.06);
  });

  it('never repeats', () => {
    const seen = new Set(Array.from({ length: 100_000 }, () => randomBase62(128)));
    expect(seen.size).toBe(100_000);
  });
});

describe('newId and uniqueToken', () => {
  it('prefix 128 random bits, and count within this process', () => {
    expect(newId('rec')).toMatch(/^rec_[0-9A-Za-z]{22}$/);
    const [a, b] = [uniqueToken(), uniqueToken()];
    expect(a).not.toBe(b);
    expect(a.split('.')[0]).toBe(b.split('.')[0]);
  });
});
