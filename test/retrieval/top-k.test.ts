import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topK } from '../../src/knowledge/retrieval/top-k.js';

describe('topK', () => {
  it('equals sorting then slicing, ties kept in a stable order (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 300 }), fc.integer({ min: -1, max: 40 }), (scores, k) => {
        const items = scores.map((score, seq) => ({ score, seq }));
        const before = (a: (typeof items)[0], b: (typeof items)[0]) => a.score > b.score || (a.score === b.score && a.seq < b.seq);
        const expected = [...items].sort((a, b) => b.score - a.score || a.seq - b.seq).slice(0, Math.max(0, k));
        expect(topK(items, k, before)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
