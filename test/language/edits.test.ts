/**
 * One-edit spelling neighbourhoods (src/knowledge/language/edits.ts): a small dictionary is scanned
 * and a large one indexed by its deletion keys; both give the same answers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeletionIndex, withinOneEdit } from '../../src/knowledge/language/edits.js';

const word = fc.string({ unit: fc.constantFrom('a', 'b', 'e', 'r', 's', 't'), minLength: 1, maxLength: 7 });

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

  it('finds a transposition, an insertion, a deletion and a substitution', () => {
    const index = new DeletionIndex(['warranty', 'starter', 'start', 'refund'], 4);
    expect(index.neighbours('warrnaty')).toEqual(['warranty']);
    expect(index.neighbours('startr')).toEqual(['start', 'starter']);
    expect(index.neighbours('refunds')).toEqual(['refund']);
    expect(index.neighbours('refumd')).toEqual(['refund']);
  });
});
