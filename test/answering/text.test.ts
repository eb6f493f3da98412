import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../src/knowledge/answering/sentences.js';
import { tokensOf } from '../../src/knowledge/answering/stream-tokens.js';

describe('tokensOf', () => {
  it('cuts words with their trailing space and punctuation', () => {
    expect(tokensOf('Returns take 30 days [1].')).toEqual(['Returns ', 'take ', '30 ', 'days ', '[1].']);
    expect(tokensOf('  lead')).toEqual(['  ', 'lead']);
    expect(tokensOf('')).toEqual([]);
  });

  it('cuts long runs without spaces into small pieces', () => {
    const chunks = tokensOf('我们的退货政策是三十天内可以退货。');
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe('我们的退货政策是三十天内可以退货。');
  });

  it('concatenates back to the answer exactly (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        expect(tokensOf(s).join('')).toBe(s);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '\n', '。', '👩‍👩‍👧', 'é', '[', '1', ']'), maxLength: 200 }), (s) => {
        const chunks = tokensOf(s);
        expect(chunks.join('')).toBe(s);
        for (const c of chunks) expect(c.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('splitSentences', () => {
  it('splits at sentence ends and line breaks and collapses whitespace', () => {
    expect(splitSentences('First one.  Second\n one? Third!\nPrice: 10\n\nColour: red').map((s) => s.text)).toEqual([
      'First one.',
      'Second one?',
      'Third!',
      'Price: 10',
      'Colour: red',
    ]);
  });

  it('does not split after common abbreviations or initials', () => {
    expect(splitSentences('Mr. Smith met Dr. Jones. J. R. R. Tolkien wrote it. See e.g. this.').map((s) => s.text)).toEqual([
      'Mr. Smith met Dr. Jones.',
      'J. R. R. Tolkien wrote it.',
      'See e.g. this.',
    ]);
  });

  it('splits Chinese and Japanese sentences', () => {
    expect(splitSentences('日本語の文です。二つ目の文！').map((s) => s.text)).toEqual(['日本語の文です。', '二つ目の文！']);
  });

  it('reports offsets into the original text', () => {
    const text = '  Alpha beta.   Gamma delta.';
    for (const s of splitSentences(text, 100)) expect(text.slice(s.start - 100, s.start - 100 + s.text.length)).toBe(s.text);
  });
});
