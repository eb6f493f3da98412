/**
 * The look-ups' lists made smaller (issue 14, memory per knowledge base: they held ~15 KB for as
 * long as a 25-record index was held): a small vocabulary is scanned for spelling neighbours
 * instead of holding a spelling table, and the suffix look-up keeps term ids ordered by reversed
 * spelling instead of a reversed copy of every term. Both must give the words the former lists
 * gave, in the same order, so the expansion of a question and the ranking are the same.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';
import { compareReversed, reversedStartsWith, reverseWord, wordsWithSuffix } from '../../src/knowledge/retrieval/sorted-words.js';

const WORDS = ['refund', 'refunds', 'refunded', 'shipping', 'shipped', 'order', 'orders', 'café', 'cafe', 'the', 'mastercard', 'card', 'giftcard', 'warranty', 'warranti', 'delivery', 'deliveries', '𝒳ray', 'x𝒳ray', '退货', 'payment', 'prepayment', 'hours'];
const word = fc.constantFrom(...WORDS);
const text = fc.array(word, { maxLength: 10 }).map((w) => w.join(' '));
const records = fc
  .array(fc.record({ recordId: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), title: fc.option(text, { nil: null }), text, sourceName: fc.constant('s') }), { maxLength: 8 })
  .map((list) => [...new Map(list.map((r) => [r.recordId, r])).values()]);
const probe = fc.constantFrom('re', 'ref', 'ship', 'card', 'ment', 'ray', '𝒳', 'caf', 'x', 'ies', 'refnd', 'shiping', 'warrant', 'delivry', 'payement', 'carde', 'hour');

function lookups(index: KnowledgeIndex, probes: readonly string[]) {
  return probes.map((p) => [index.surfacesWithPrefix(p, 3), index.surfacesWithPrefix(p, 64), index.termsWithSuffix(p, 2), index.termsWithSuffix(p, 16), index.surfacesWithSuffix(p, 16), index.surfacesWithinOneEdit(p)]);
}

describe('look-up lists', () => {
  it('scanned or indexed, give the same spelling neighbours and everything else, before and after changes (property)', () => {
    fc.assert(
      fc.property(records, records, fc.array(probe, { minLength: 1, maxLength: 6 }), (start, more, probes) => {
        const scanned = KnowledgeIndex.build(start, { language: 'en' });
        const listed = KnowledgeIndex.build(start, { language: 'en', scanAtMost: 0 });
        expect(lookups(scanned, probes)).toEqual(lookups(listed, probes));
        const questions = probes.map((p) => `${p} order`);
        expect(questions.map((q) => scanned.search(q, 10))).toEqual(questions.map((q) => listed.search(q, 10)));
        for (const index of [scanned, listed]) {
          index.remove(['a', 'd']);
          index.add(more);
        }
        expect(lookups(scanned, probes)).toEqual(lookups(listed, probes));
        expect(questions.map((q) => scanned.expand(q))).toEqual(questions.map((q) => listed.expand(q)));
      }),
      { numRuns: 200 },
    );
  });

  it('find the terms with a suffix a list of reversed copies finds, in its order (property)', () => {
    fc.assert(
      fc.property(records, fc.array(probe, { minLength: 1, maxLength: 6 }), (list, probes) => {
        const index = KnowledgeIndex.build(list, { language: 'en' });
        const { terms, df } = index.toCompact();
        const reversed = terms.filter((_, t) => (df[t] as number) > 0).map(reverseWord).sort();
        for (const p of probes) for (const limit of [1, 16]) expect(index.termsWithSuffix(p, limit)).toEqual(wordsWithSuffix(reversed, p, limit));
      }),
      { numRuns: 200 },
    );
  });

  it('find the surface words with a suffix a list of reversed copies finds, in its order, before and after changes (property)', () => {
    fc.assert(
      fc.property(records, records, fc.array(probe, { minLength: 1, maxLength: 6 }), (start, more, probes) => {
        const index = KnowledgeIndex.build(start, { language: 'en' });
        const check = () => {
          const reversed = index.surfacesWithPrefix('', Number.POSITIVE_INFINITY).map(reverseWord).sort();
          for (const p of probes) for (const limit of [1, 16]) expect(index.surfacesWithSuffix(p, limit)).toEqual(wordsWithSuffix(reversed, p, limit));
        };
        check();
        index.remove(['a', 'd']);
        index.add(more);
        check();
      }),
      { numRuns: 200 },
    );
  });

  it('spell a word backwards by code points, surrogate pairs kept whole (property)', () => {
    const unit = fc.constantFrom('a', 'b', 'z', 'é', '退', '\ud835\udcb3', '\ud835', '\udcb3', '');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 8 }).map((u) => u.join('')), (w) => {
        expect(reverseWord(w)).toBe([...w].reverse().join(''));
      }),
      { numRuns: 2000 },
    );
  });

  it('compare reversed spellings as the reversed strings compare, surrogate pairs kept whole (property)', () => {
    const unit = fc.constantFrom('a', 'b', 'z', 'é', '退', '\ud835\udcb3', '\ud835', '\udcb3', '');
    const word = fc.array(unit, { maxLength: 6 }).map((u) => u.join(''));
    fc.assert(
      fc.property(word, word, (w, x) => {
        const r = reverseWord(x);
        const rw = reverseWord(w);
        expect(Math.sign(compareReversed(w, r))).toBe(rw < r ? -1 : rw > r ? 1 : 0);
        expect(reversedStartsWith(w, r)).toBe(rw.startsWith(r));
      }),
      { numRuns: 2000 },
    );
  });
});
