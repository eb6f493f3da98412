/**
 * The sentence rule for a model's answer: a sentence whose citations all point at no passage is
 * dropped whole; a sentence with one valid citation stays (its other markers removed); a
 * sentence without markers stays.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { citedIndices, removeDanglingCitations } from '../../src/knowledge/answering/citations.js';
import { answerSentences, dropUnsupportedSentences } from '../../src/knowledge/answering/llm-grounding.js';

describe('dropUnsupportedSentences', () => {
  it.each([
    ['keeps an answer whose citations all resolve', 'Orders ship from Bremen [1]. Returns are free [2].', 2, 'Orders ship from Bremen [1]. Returns are free [2].', 0],
    ['drops a sentence whose only citation dangles', 'Orders ship from Bremen [1]. Returns are free for 90 days [7].', 2, 'Orders ship from Bremen [1].', 1],
    ['drops it at the start too', 'Returns are free for 90 days [7]. Orders ship from Bremen [1].', 2, 'Orders ship from Bremen [1].', 1],
    ['keeps a sentence with one valid citation among invalid ones', 'Orders ship from Bremen [1, 9] and fast [8].', 2, 'Orders ship from Bremen [1] and fast.', 0],
    ['keeps sentences without markers', 'Here is what I found. Orders ship from Bremen [1]. Returns are free [9].', 2, 'Here is what I found. Orders ship from Bremen [1].', 1],
    ['treats a marker after the full stop as the sentence’s own', 'Orders ship from Bremen. [1] Returns are free. [9]', 2, 'Orders ship from Bremen. [1]', 1],
    ['keeps a marker at the start of a line with its line', '[1] Orders ship from Bremen.\n[9] Returns are free.', 2, '[1] Orders ship from Bremen.', 1],
    ['drops a dangling list item and keeps the lines apart', 'Two things:\n- Ships from Bremen [1]\n- Free returns [5]\n- Lifetime warranty [2]', 2, 'Two things:\n- Ships from Bremen [1]\n- Lifetime warranty [2]', 1],
    ['keeps the paragraph break of a dropped paragraph', 'A ships [1]. B is free [4].\n\nC lasts [2].', 2, 'A ships [1].\n\nC lasts [2].', 1],
    ['does not cut at an abbreviation', 'Dr. Smith handles returns [9]. Orders ship [1].', 2, 'Orders ship [1].', 1],
    ['does not cut after a list number', '1. Returns are free [9].\n2. Orders ship [1].', 2, '2. Orders ship [1].', 1],
    ['handles full-width markers', 'Returns are free【9】。Orders ship【1】。', 2, 'Orders ship【1】。', 1],
    ['drops everything when nothing resolves', 'Returns are free [3]. Orders ship [4].', 2, '', 2],
    ['removes all markers when there are no sources', 'Just words. With a marker [1].', 0, 'Just words.', 1],
    ['keeps empty text empty', '', 2, '', 0],
  ])('%s', (_, input, sources, expected, dropped) => {
    expect(dropUnsupportedSentences(input, sources)).toEqual({ text: expected, dropped });
  });

  it('with nothing dropped, is removeDanglingCitations (the streamed text)', () => {
    const text = 'Orders ship from Bremen [1] and returns are free [7]. Ask us [99] any time [1, 12].';
    expect(dropUnsupportedSentences(text, 2)).toEqual({ text: removeDanglingCitations(text, 2), dropped: 0 });
  });
});

/** A sentence of a generated answer: a unique word, filler, its citations (before or after the stop), an ending. */
interface GeneratedSentence {
  filler: string;
  cites: number[];
  listed: boolean;
  afterStop: boolean;
  end: string;
}
const sentence: fc.Arbitrary<GeneratedSentence> = fc.record({
  filler: fc.constantFrom('', ' ships from Bremen', ' is free', ' lasts a lifetime, for all frames'),
  cites: fc.array(fc.integer({ min: 0, max: 8 }), { maxLength: 3 }),
  listed: fc.boolean(),
  afterStop: fc.boolean(),
  end: fc.constantFrom('. ', '! ', '? ', '.\n', '.\n\n', '。'),
});
const answer = fc.tuple(fc.array(sentence, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 6 }));

function render(sentences: GeneratedSentence[]): string {
  return sentences
    .map((s, i) => {
      const marker = s.cites.length === 0 ? '' : s.listed ? `[${s.cites.join(', ')}]` : s.cites.map((n) => `[${n}]`).join('');
      const stop = s.end.trimEnd();
      const space = s.end.slice(stop.length) || (stop === '。' ? '' : ' ');
      const body = `Word${'abcdefgh'[i]}x${s.filler}`;
      if (!marker) return `${body}${stop}${space}`;
      return s.afterStop ? `${body}${stop} ${marker}${space}` : `${body} ${marker}${stop}${space}`;
    })
    .join('');
}

describe('dropUnsupportedSentences (properties)', () => {
  it('splits an answer into sentences that join back to it', () => {
    fc.assert(
      fc.property(answer, ([sentences]) => {
        const text = render(sentences);
        expect(answerSentences(text).join('')).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('drops exactly the sentences whose citations all dangle, and leaves no dangling marker', () => {
    fc.assert(
      fc.property(answer, ([sentences, sources]) => {
        const text = render(sentences);
        const { text: out, dropped } = dropUnsupportedSentences(text, sources);
        let expectedDropped = 0;
        sentences.forEach((s, i) => {
          const supported = s.cites.length === 0 || s.cites.some((n) => n >= 1 && n <= sources);
          if (!supported) expectedDropped++;
          expect(out.includes(`Word${'abcdefgh'[i]}x`), `${JSON.stringify(text)} → ${JSON.stringify(out)}`).toBe(supported);
        });
        expect(dropped).toBe(expectedDropped);
        for (const n of citedIndices(out)) {
          expect(n).toBeGreaterThanOrEqual(1);
          expect(n).toBeLessThanOrEqual(sources);
        }
        // Applying the rule again changes nothing.
        expect(dropUnsupportedSentences(out, sources)).toEqual({ text: out, dropped: 0 });
      }),
      { numRuns: 1000 },
    );
  });

  it('never drops a sentence from an answer whose citations all resolve', () => {
    fc.assert(
      fc.property(answer, ([sentences, sources]) => {
        const text = render(sentences.map((s) => ({ ...s, cites: s.cites.map((n) => 1 + (n % Math.max(1, sources))) })));
        expect(dropUnsupportedSentences(text, Math.max(1, sources))).toEqual({ text, dropped: 0 });
      }),
      { numRuns: 500 },
    );
  });
});
