/**
 * TermVocabulary changed in place (`update`) and built in slices (`inSlices`) is the vocabulary the
 * constructor makes from the resulting word list: the PostgreSQL retriever applies an upload's
 * changed words to the vocabulary it holds instead of building a new one (issue 14).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Slices } from '../../src/time-slices.js';
import { TermVocabulary, type WordCount } from '../../src/knowledge/retrieval/vocabulary.js';
import { vocabularyState } from './vocabulary-state.js';

const BASE = ['ship', 'shipping', 'shipped', 'shipment', 'deliver', 'delivery', 'deliveries', 'café', 'cafe', 'größe', 'grosse', 'e-mail', 'mail', 'mastercard', 'card', 'returns', 'return'];
/** Short words over few letters, so many are one edit apart, plus forms of common words and codes. */
const wordArb = fc.oneof(
  fc.constantFrom(...BASE),
  fc.stringMatching(/^[abdeklnrst]{3,7}$/),
  fc.stringMatching(/^[a-z]{2,4}[0-9]{1,3}$/),
);

/** Word lists as the outside index gives them: each word once, with the records containing it. */
function asList(counts: Map<string, number>): WordCount[] {
  return [...counts].filter(([, docs]) => docs > 0).map(([word, docs]) => ({ word, docs }));
}

function warm(v: TermVocabulary, probes: readonly string[]): void {
  // The lazily made look-ups exist before the update, so `update` has to keep them right.
  v.surfacesWithPrefix('s', 4);
  v.termsWithSuffix('ing', 4);
  for (const p of probes) v.surfacesWithinOneEdit(p);
}

describe('TermVocabulary.update', () => {
  it('leaves the vocabulary a new build of the changed word list would be, for any sequence of changes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(wordArb, fc.integer({ min: 1, max: 9 })), { maxLength: 60 }),
        fc.array(fc.array(fc.tuple(wordArb, fc.integer({ min: 0, max: 9 })), { maxLength: 25 }), { minLength: 1, maxLength: 6 }),
        fc.array(wordArb, { maxLength: 6 }),
        fc.boolean(),
        (initial, steps, probes, warmed) => {
          const counts = new Map<string, number>(initial);
          let size = Math.max(1, ...counts.values());
          const held = new TermVocabulary(asList(counts), size, 'en');
          if (warmed) warm(held, probes);
          for (const step of steps) {
            for (const [word, docs] of step) counts.set(word, docs);
            size = Math.max(1, ...counts.values()) + (step.length % 3);
            held.update(
              step.map(([word]) => ({ word, docs: counts.get(word) ?? 0 })),
              size,
            );
            expect(vocabularyState(held, probes)).toEqual(vocabularyState(new TermVocabulary(asList(counts), size, 'en'), probes));
          }
        },
      ),
      { numRuns: 150 },
    );
  }, 60_000);

  it('keeps the spelling look-up right past a thousand surfaces and past the surfaces it searches beside its index', () => {
    const letters = 'abcdefghij';
    const words: string[] = [];
    for (let i = 0; words.length < 3000; i++) {
      let w = '';
      for (let n = i + 1000; n > 0; n = Math.floor(n / letters.length)) w += letters[n % letters.length];
      words.push(w);
    }
    const counts = new Map(words.slice(0, 1500).map((w) => [w, 1]));
    const held = new TermVocabulary(asList(counts), 1500, 'en');
    const probes = ['abcde', 'bacdef', 'jjbaa', 'aaab', 'cdeaf', words[1700] as string, words[2900] as string];
    warm(held, probes);
    // More added than are searched beside the index (it is made again), then some removed.
    for (const w of words.slice(1500)) counts.set(w, 2);
    for (const w of words.slice(0, 400)) counts.set(w, 0);
    held.update(
      [...words.slice(1500), ...words.slice(0, 400)].map((word) => ({ word, docs: counts.get(word) ?? 0 })),
      3000,
    );
    expect(vocabularyState(held, probes)).toEqual(vocabularyState(new TermVocabulary(asList(counts), 3000, 'en'), probes));
    // A few added and removed: searched beside the index made after the last update.
    held.surfacesWithinOneEdit('abcde');
    counts.set(words[500] as string, 0);
    counts.set('abcdx', 1);
    held.update([{ word: words[500] as string, docs: 0 }, { word: 'abcdx', docs: 1 }], 3001);
    expect(vocabularyState(held, [...probes, 'abcdy'])).toEqual(vocabularyState(new TermVocabulary(asList(counts), 3001, 'en'), [...probes, 'abcdy']));
  });

  it('caps a document frequency at the record count as the count changes', () => {
    const held = new TermVocabulary(
      [
        { word: 'ship', docs: 3 },
        { word: 'shipping', docs: 3 },
      ],
      4,
      'en',
    );
    expect(held.docFreq('ship')).toBe(4);
    held.update([], 10);
    expect(held.docFreq('ship')).toBe(6);
    held.update([{ word: 'shipping', docs: 0 }], 10);
    expect(held.docFreq('ship')).toBe(3);
    expect(held.wordsOf('ship')).toEqual(['ship']);
  });

  it('forgets the questions it expanded before a change', () => {
    const held = new TermVocabulary([{ word: 'ship', docs: 1 }], 2, 'en');
    const before = held.expand('delivery');
    held.update([{ word: 'delivery', docs: 1 }], 3);
    const after = held.expand('delivery');
    expect(after).not.toEqual(before);
    expect(after).toEqual(
      new TermVocabulary(
        [
          { word: 'ship', docs: 1 },
          { word: 'delivery', docs: 1 },
        ],
        3,
        'en',
      ).expand('delivery'),
    );
  });
});

describe('TermVocabulary.inSlices', () => {
  it('builds the vocabulary the constructor builds, letting other work run between slices', async () => {
    const words: WordCount[] = [];
    for (let i = 0; i < 20_000; i++) words.push({ word: `w${i.toString(36)}x${(i * 7919) % 1000}`, docs: 1 + (i % 5) });
    for (const word of BASE) words.push({ word, docs: 2 });
    let pauses = 0;
    const sliced = await TermVocabulary.inSlices(
      words,
      30_000,
      'en',
      new Slices(async () => {
        pauses++;
        await new Promise((resolve) => setImmediate(resolve));
      }),
    );
    // 20,000 words take far longer than one slice (~8 µs each).
    expect(pauses).toBeGreaterThan(0);
    expect(vocabularyState(sliced, ['shiping', 'delivry'])).toEqual(vocabularyState(new TermVocabulary(words, 30_000, 'en'), ['shiping', 'delivry']));
  });
});
