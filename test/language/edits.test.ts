/**
 * One-edit spelling neighbourhoods (src/knowledge/language/edits.ts): a small dictionary is scanned
 * and a large one indexed by its deletion keys; both give the same answers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeletionIndex, withinOneEdit } from '../../src/knowledge/language/edits.js';
import { hashOf } from '../../src/knowledge/retrieval/word-ids.js';

const word = fc.string({ unit: fc.constantFrom('a', 'b', 'e', 'r', 's', 't'), minLength: 1, maxLength: 7 });

/** The first implementation, with substrings: the reference for the one comparing in place. */
function withinOneEditBySlices(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

describe('one-edit neighbourhoods', () => {
  it('are the same scanned or indexed, sorted, and exactly the words within one edit (property)', () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 60 }), word, (words, probe) => {
        const scanned = new DeletionIndex(words, 3, Number.POSITIVE_INFINITY);
        const indexed = new DeletionIndex(words, 3, 0);
        const expected = [...new Set(words.filter((w) => w.length >= 3 && w !== probe && withinOneEdit(probe, w)))].sort();
        expect(scanned.neighbours(probe)).toEqual(expected);
        expect(indexed.neighbours(probe)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('withinOneEdit answers as the substring implementation did, for any two strings (property)', () => {
    const any = fc.oneof(word, fc.string({ maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 4 }));
    fc.assert(
      fc.property(any, any, (a, b) => {
        expect(withinOneEdit(a, b)).toBe(withinOneEditBySlices(a, b));
        expect(withinOneEdit(b, a)).toBe(withinOneEditBySlices(b, a));
      }),
      { numRuns: 2000 },
    );
    for (const [a, b] of [['ab', 'ba'], ['abc', 'acb'], ['abc', 'ab'], ['', 'a'], ['a', 'bc'], ['abcd', 'abdc'], ['abcd', 'badc']]) {
      expect(withinOneEdit(a as string, b as string), `${a} ${b}`).toBe(withinOneEditBySlices(a as string, b as string));
    }
  });

  it('scans only the words one letter shorter, as long or one longer, with the same answers', () => {
    const words = ['warranty', 'warrant', 'warrantys', 'warr', 'start', 'starter', 'startr', 'stat', 'sta', 'starters'];
    const scanned = new DeletionIndex(words, 3, Number.POSITIVE_INFINITY);
    const indexed = new DeletionIndex(words, 3, 0);
    for (const probe of ['', 'st', 'sta', 'start', 'startrs', 'warranty', 'warrantyss', 'x'.repeat(40)]) {
      expect(scanned.neighbours(probe), probe).toEqual(indexed.neighbours(probe));
    }
  });

  it('keeps only the words within one edit when another word shares a key hash, not a key', () => {
    // Two words of six letters with the same 32-bit hash (a birthday search: about two pairs expected).
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; pair === undefined && i < 1 << 20; i++) {
      const w = `q${(i * 2654435761 >>> 0).toString(36).padStart(7, 'a').slice(-7)}`;
      const h = hashOf(w) >>> 0;
      const other = seen.get(h);
      if (other !== undefined && other !== w && !withinOneEdit(other, w)) pair = [other, w];
      seen.set(h, w);
    }
    expect(pair).toBeDefined();
    const [stored, probe] = pair as [string, string];
    const index = new DeletionIndex([stored, `${probe}x`, 'warranty'], 4, 0);
    // `stored` shares the probe's hash; only the word one edit away is its neighbour.
    expect(index.neighbours(probe)).toEqual([`${probe}x`]);
    expect(index.neighbours(stored)).toEqual([]);
  });

  it('finds a transposition, an insertion, a deletion and a substitution', () => {
    const index = new DeletionIndex(['warranty', 'starter', 'start', 'refund'], 4);
    expect(index.neighbours('warrnaty')).toEqual(['warranty']);
    expect(index.neighbours('startr')).toEqual(['start', 'starter']);
    expect(index.neighbours('refunds')).toEqual(['refund']);
    expect(index.neighbours('refumd')).toEqual(['refund']);
  });
});
