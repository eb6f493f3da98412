import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { citedIndices, removeDanglingCitations } from '../../src/knowledge/answering/citations.js';

describe('removeDanglingCitations', () => {
  it.each([
    ['keeps valid markers', 'Returns take 30 days [1]. Shipping is free [2].', 2, 'Returns take 30 days [1]. Shipping is free [2].'],
    ['removes a dangling marker and its space', 'Returns take 30 days [3].', 2, 'Returns take 30 days.'],
    ['removes [0]', 'Text [0] more.', 2, 'Text more.'],
    ['keeps the valid part of a list', 'Both apply [1, 4].', 2, 'Both apply [1].'],
    ['removes a fully dangling list', 'Both apply [3, 4].', 2, 'Both apply.'],
    ['handles adjacent markers', 'Fact[1][5][2].', 2, 'Fact[1][2].'],
    ['handles adjacent markers with spaces', 'Fact [5] [2].', 2, 'Fact [2].'],
    ['handles full-width brackets', 'Fact【1】 and【7】 more.', 2, 'Fact【1】 and more.'],
    ['handles ranges', 'See [1-2] and [2-5].', 2, 'See [1-2] and.'],
    ['removes all markers when there are no sources', 'Text [1] here [2].', 0, 'Text here.'],
    ['tidies a marker at the start of a line', '[4] Starts here.\n[9] Next line.', 2, 'Starts here.\nNext line.'],
    ['keeps words apart', 'word[9]next', 2, 'word next'],
    ['leaves non-citation brackets alone', 'Use [x] or [a-b] or [1a] [ ].', 1, 'Use [x] or [a-b] or [1a] [ ].'],
    ['handles huge numbers', 'Odd [99999999999].', 2, 'Odd [99999999999].'],
    ['handles a huge invalid number within range of the pattern', 'Odd [123456].', 2, 'Odd.'],
    ['keeps empty text empty', '', 3, ''],
  ])('%s', (_, input, count, expected) => {
    expect(removeDanglingCitations(input, count)).toBe(expected);
  });

  it('leaves no marker outside 1..n (property)', () => {
    const piece = fc.oneof(
      fc.constantFrom('word', ' ', '. ', '\n', 'the answer'),
      fc.nat({ max: 12 }).map((n) => `[${n}]`),
      fc.tuple(fc.nat({ max: 9 }), fc.nat({ max: 9 })).map(([a, b]) => `[${a}, ${b}]`),
      fc.nat({ max: 9 }).map((n) => `【${n}】`),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), fc.nat({ max: 6 }), (pieces, n) => {
        const cleaned = removeDanglingCitations(pieces.join(''), n);
        for (const i of citedIndices(cleaned)) expect(i >= 1 && i <= n).toBe(true);
        // Idempotent.
        expect(removeDanglingCitations(cleaned, n)).toBe(cleaned);
      }),
    );
  });
});

describe('citedIndices', () => {
  it('lists distinct indices in order of first appearance', () => {
    expect(citedIndices('b [2] a [1] again [2] both [1, 3] range [4-5]【6】')).toEqual([2, 1, 3, 4, 5, 6]);
    expect(citedIndices('no markers')).toEqual([]);
  });
});
