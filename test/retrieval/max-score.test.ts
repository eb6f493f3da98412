/**
 * The pruned search (max-score.ts, issue 14: query time at 100,000 records) ranks exactly as
 * scoring every posting: the same records, the same scores bit for bit, the same order of ties,
 * whatever the corpus, the question's weights, the limit, removed records and postings not yet
 * compacted. And it does prune on a corpus of common words, and looks its candidates up in the
 * postings of the commonest ones (else this would test nothing).
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KnowledgeIndex, type WeightedTerm } from '../../src/knowledge/retrieval/knowledge-index.js';
import { maxScoreSwitch } from '../../src/knowledge/retrieval/max-score.js';

/** Words from very common to rare (Zipf-like), so a few of them are in most records. */
const VOCABULARY = Array.from({ length: 400 }, (_, i) => `zq${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`);

function corpus(seed: number, size: number): { recordId: string; title: string | null; text: string; sourceName: string }[] {
  let state = seed >>> 0 || 1;
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const word = () => VOCABULARY[Math.floor(VOCABULARY.length * next() ** 3)] as string;
  return Array.from({ length: size }, (_, i) => {
    // Some records are copies of an earlier one: equal scores, ranked by their order.
    const copy = i > 10 && next() < 0.05 ? Math.floor(next() * i) : -1;
    const words = Array.from({ length: 4 + Math.floor(next() * 14) }, word);
    return { recordId: `r${i}`, title: next() < 0.5 ? null : `${word()} ${word()}`, text: copy >= 0 ? `copy ${copy % 7}` : words.join(' '), sourceName: 's' };
  });
}

function both(index: KnowledgeIndex, terms: WeightedTerm[], limit: number) {
  maxScoreSwitch.enabled = false;
  const full = index.searchWeighted(terms, limit);
  maxScoreSwitch.enabled = true;
  return { full, pruned: index.searchWeighted(terms, limit) };
}

const defaultMinPostings = maxScoreSwitch.minPostings;
// Pruning from a few hundred postings on, so that these corpora of thousands of records exercise it.
beforeEach(() => {
  maxScoreSwitch.minPostings = 200;
});
afterEach(() => {
  maxScoreSwitch.enabled = true;
  maxScoreSwitch.minPostings = defaultMinPostings;
});

describe('the pruned search (MaxScore)', () => {
  it('ranks exactly as scoring every posting, scores bit for bit, after removals and uncompacted additions (property)', () => {
    const built = [1, 2, 3].map((seed) => {
      const records = corpus(seed, 4000);
      const index = KnowledgeIndex.build(records, { language: 'en' });
      // Removed records (dead slots until compaction) and a few added since (recent postings).
      index.remove(records.filter((_, i) => i % 13 === 0).map((r) => r.recordId));
      index.add(corpus(seed + 10, 60).map((r) => ({ ...r, recordId: `n${r.recordId}` })));
      return index;
    });
    const used = maxScoreSwitch.used;
    const galloped = maxScoreSwitch.galloped;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 }),
        fc.array(fc.record({ word: fc.integer({ min: 0, max: VOCABULARY.length - 1 }), weight: fc.oneof(fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })) }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 12 }),
        (which, words, limit) => {
          const index = built[which] as KnowledgeIndex;
          const terms = words.map(({ word, weight }) => ({ term: index.termOfSurface(VOCABULARY[word] as string) ?? (VOCABULARY[word] as string), weight }));
          const { full, pruned } = both(index, terms, limit);
          expect(pruned).toEqual(full);
        },
      ),
      { numRuns: 400 },
    );
    // It did prune (most such questions have a common word whose postings cannot change the top),
    // and looked the candidates up in a common word's postings rather than testing every one.
    expect(maxScoreSwitch.used - used).toBeGreaterThan(50);
    expect(maxScoreSwitch.galloped - galloped).toBeGreaterThan(10);
  });

  it('looks a few candidates up in a common word’s postings, removed and uncompacted ones included, as the full search scores them', () => {
    // "common" is in every record; "rare" in one in 50; "mid" in one in 7. Some records removed, some added since.
    const records = Array.from({ length: 6000 }, (_, i) => ({
      recordId: `r${i}`,
      title: i % 11 === 0 ? 'common title' : null,
      text: `common ${i % 50 === 0 ? 'rare ' : ''}${i % 7 === 0 ? 'mid ' : ''}filler ${'common '.repeat(i % 3)}`,
      sourceName: 's',
    }));
    const index = KnowledgeIndex.build(records, { language: 'en' });
    index.remove(records.filter((_, i) => i % 100 === 0 || i % 17 === 0).map((r) => r.recordId));
    index.add(Array.from({ length: 40 }, (_, i) => ({ recordId: `n${i}`, title: null, text: `common ${i % 2 === 0 ? 'rare' : 'mid'} common`, sourceName: 's' })));
    const galloped = maxScoreSwitch.galloped;
    for (const [words, limit] of [
      [['rare', 'common'], 6],
      [['common', 'rare', 'mid'], 10],
      [['mid', 'rare', 'common', 'filler'], 3],
    ] as const) {
      const terms = words.map((w) => ({ term: index.termOfSurface(w) ?? w, weight: 1 }));
      const { full, pruned } = both(index, terms, limit);
      expect(pruned).toEqual(full);
      expect(pruned).toHaveLength(limit);
    }
    expect(maxScoreSwitch.galloped).toBeGreaterThan(galloped);
  });

  it('ranks records with equal scores by their order, as the full search does', () => {
    const records = Array.from({ length: 3000 }, (_, i) => ({ recordId: `r${i}`, title: null, text: i % 3 === 0 ? 'alpha beta common' : 'common filler words here', sourceName: 's' }));
    const index = KnowledgeIndex.build(records, { language: 'en' });
    const terms = ['alpha', 'common', 'filler'].map((w) => ({ term: index.termOfSurface(w) ?? w, weight: 1 }));
    const used = maxScoreSwitch.used;
    const { full, pruned } = both(index, terms, 5);
    expect(pruned).toEqual(full);
    expect(pruned.map((h) => h.recordId)).toEqual(['r0', 'r3', 'r6', 'r9', 'r12']);
    expect(maxScoreSwitch.used).toBe(used + 1);
  });
});
