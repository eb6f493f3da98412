/**
 * A large vocabulary's spelling table is made in slices, not at once on the HTTP thread (issue 14,
 * head of line; docs/indexing.md "Session 11"): until it is there, the neighbours come from a scan
 * of the same words. Either way the answers, and so the expansion of a question and the ranking,
 * must be the ones a table made at once gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeletionIndex, neighboursByScan } from '../../src/knowledge/language/edits.js';
import { KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';

const WORDS = ['refund', 'refunds', 'refunded', 'shipping', 'shipped', 'order', 'orders', 'café', 'cafe', 'mastercard', 'card', 'cards', 'warranty', 'warranti', 'delivery', 'deliveries', '𝒳ray', 'x𝒳ray', 'payment', 'hours', 'start', 'starter', 'stars'];
const word = fc.constantFrom(...WORDS);
const text = fc.array(word, { maxLength: 10 }).map((w) => w.join(' '));
const records = fc
  .array(fc.record({ recordId: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), title: fc.option(text, { nil: null }), text, sourceName: fc.constant('s') }), { maxLength: 8 })
  .map((list) => [...new Map(list.map((r) => [r.recordId, r])).values()]);
const probe = fc.constantFrom('refnd', 'shiping', 'warrant', 'delivry', 'payement', 'carde', 'hour', 'stat', 'xray', 'cafe', 'orderz', 'start');

describe('spelling table in steps', () => {
  it('DeletionIndex.inSteps makes the index the constructor makes, in more than one step, and the scan answers alike (property)', () => {
    const letters = fc.string({ unit: fc.constantFrom('a', 'b', 'e', 'r', 's', 't'), minLength: 1, maxLength: 7 });
    fc.assert(
      fc.property(fc.array(letters, { minLength: 4, maxLength: 40 }), letters, (words, p) => {
        const steps = DeletionIndex.inSteps(words, 3, 1, 0);
        let yielded = 0;
        let step = steps.next();
        for (; !step.done; step = steps.next()) yielded++;
        if (words.filter((w) => w.length >= 3).length > 1) expect(yielded).toBeGreaterThan(0);
        const atOnce = new DeletionIndex(words, 3, 0);
        expect(step.value.neighbours(p)).toEqual(atOnce.neighbours(p));
        expect(neighboursByScan(words, p, 3)).toEqual(atOnce.neighbours(p));
      }),
      { numRuns: 300 },
    );
  });

  it('an index answers alike before its table is there, once it is, and after changes drop it (property)', async () => {
    await fc.assert(
      fc.asyncProperty(records, records, fc.array(probe, { minLength: 1, maxLength: 6 }), async (start, more, probes) => {
        // scanAtMost 0: every vocabulary gets a table; the default scans these small ones (the reference).
        const stepped = KnowledgeIndex.build(start, { language: 'en', scanAtMost: 0 });
        const reference = KnowledgeIndex.build(start, { language: 'en' });
        const questions = probes.map((p) => `${p} order`);
        const answers = (index: KnowledgeIndex) => [probes.map((p) => index.surfacesWithinOneEdit(p)), questions.map((q) => index.search(q, 10))];
        expect(answers(stepped)).toEqual(answers(reference));
        await stepped.spellingSettled();
        expect(answers(stepped)).toEqual(answers(reference));
        // Dropped, asked again (a table in the making), then changed before it is there: the table of the old words is dropped.
        stepped.releaseCaches();
        probes.forEach((p) => stepped.surfacesWithinOneEdit(p));
        for (const index of [stepped, reference]) {
          index.remove(['a', 'd']);
          index.add(more);
        }
        expect(answers(stepped)).toEqual(answers(reference));
        await stepped.spellingSettled();
        expect(answers(stepped)).toEqual(answers(reference));
        await stepped.spellingSettled();
        expect(answers(stepped)).toEqual(answers(reference));
      }),
      { numRuns: 150 },
    );
  });

  it('is made in slices, not on the first look-up, and then held', async () => {
    const letters = (i: number): string => (i < 26 ? '' : letters(Math.floor(i / 26) - 1)) + String.fromCharCode(97 + (i % 26));
    const words = Array.from({ length: 3000 }, (_, i) => `word${letters(i)}`);
    const index = KnowledgeIndex.build([{ recordId: 'r', title: null, text: words.join(' '), sourceName: 's' }], { language: 'en', scanAtMost: 100 });
    const before = index.approximateBytes();
    const neighbours = index.surfacesWithinOneEdit('wordabz');
    // Not made at once: nothing held for it yet.
    expect(index.approximateBytes()).toBe(before);
    await index.spellingSettled();
    expect(index.approximateBytes()).toBeGreaterThan(before);
    expect(index.surfacesWithinOneEdit('wordabz')).toEqual(neighbours);
    // The answer of a table made at once of the same words.
    expect(neighbours).toContain('wordab');
    expect(neighbours).toEqual(new DeletionIndex(words, 4, 0).neighbours('wordabz'));
    index.releaseCaches();
    expect(index.approximateBytes()).toBe(before);
  });
});
