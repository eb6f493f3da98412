import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { answerCacheKey } from '../../src/knowledge/query/answer-cache-key.js';
import { questionHash, questionInContext, sameQuestion } from '../../src/knowledge/query/same-question.js';

describe('sameQuestion', () => {
  it.each([
    ['What is the price?', 'what is the price'],
    ['  What   is\tthe\nprice ?!. ', 'what is the price'],
    ['PRICE...', 'price'],
    ['price ? .', 'price'],
    ['Cafe\u0301 hours', 'café hours'], // decomposed → NFC
    ['café\u00a0hours', 'café hours'], // no-break space collapsed
    ['Where? Now.', 'where? now'], // only trailing punctuation goes
    ['¿Dónde está?', '¿dónde está'],
    ['?!.', ''],
    ['v2.0', 'v2.0'],
  ])('%j → %j', (input, expected) => {
    expect(sameQuestion(input)).toBe(expected);
  });

  it('is idempotent', () => {
    for (const q of ['A ? .', ' x  y ! ', 'İstanbul?', 'Ǆ.']) expect(sameQuestion(sameQuestion(q))).toBe(sameQuestion(q));
  });

  it('folds a printable-ASCII question (the quick path) exactly as the full path does (property)', () => {
    const full = (text: string) => {
      const folded = text.normalize('NFC').toLowerCase().normalize('NFC').replace(/\s+/gu, ' ');
      let end = folded.length;
      while (end > 0 && ' ?!.'.includes(folded.charAt(end - 1))) end--;
      return folded.slice(0, end).trimStart();
    };
    const text = fc.oneof(
      fc.string({ unit: fc.constantFrom('a', 'B', ' ', '?', '!', '.', '\t', '\n', '\u00a0', 'É', 'e\u0301', 'İ'), maxLength: 12 }),
      fc.string({ maxLength: 20 }),
      fc.string({ unit: 'grapheme', maxLength: 8 }),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(sameQuestion(t)).toBe(full(t));
      }),
      { numRuns: 2000 },
    );
  });

  it('handles long runs of spaces and dots (the loop, not a backtracking regex)', () => {
    expect(sameQuestion(`${' .'.repeat(50_000)}x`).endsWith('x')).toBe(true);
    expect(sameQuestion(`x${' .'.repeat(50_000)}`)).toBe('x');
  });
});

describe('one question, one key, one hash', () => {
  const variants = ['Price?', 'price', ' PRICE ! '];

  it('maps "Price?", "price" and " PRICE ! " to the same cache key and the same hash', () => {
    const keys = new Set(variants.map((q) => answerCacheKey('kb_1', 1, q, 'answer')));
    const hashes = new Set(variants.map(questionHash));
    expect(keys.size).toBe(1);
    expect(hashes.size).toBe(1);
    expect(questionHash('Price?')).not.toBe(questionHash('prices'));
  });

  it('matches the NFC and NFD forms of the same text', () => {
    const nfc = 'Crème brûlée à Zürich?'.normalize('NFC');
    const nfd = nfc.normalize('NFD');
    expect(nfd).not.toBe(nfc);
    expect(sameQuestion(nfd)).toBe(sameQuestion(nfc));
    expect(questionHash(nfd)).toBe(questionHash(nfc));
    expect(answerCacheKey('kb_1', 1, nfd, 'answer')).toBe(answerCacheKey('kb_1', 1, nfc, 'answer'));
  });

  it('is the SHA-256 hex of the normalised text', () => {
    expect(questionHash(' PRICE ! ')).toBe(createHash('sha256').update('price', 'utf8').digest('hex'));
    expect(questionHash('x')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells a follow-up after one question from the same words after another or on their own', () => {
    const hash = (question: string, askedAfter?: string) => questionHash(questionInContext(question, askedAfter));
    expect(hash('How much is it?', 'Do you ship to Canada?')).toBe(hash('how much is it', ' DO YOU SHIP  TO CANADA '));
    expect(hash('How much is it?', 'Do you ship to Canada?')).not.toBe(hash('How much is it?', 'Do you ship to Mexico?'));
    expect(hash('How much is it?', 'Do you ship to Canada?')).not.toBe(hash('How much is it?'));
    expect(hash('How much is it?', 'Do you ship to Canada?')).not.toBe(hash('Do you ship to Canada? How much is it?'));
    expect(questionInContext('Price?')).toBe('Price?');
  });
});
