import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprint, normaliseText } from '../../src/knowledge/fingerprint.js';

/** A run of white space as \s sees it: spaces, tabs, line breaks, NBSP and other Unicode spaces. */
const whitespace = fc
  .array(fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u3000', '\u2028'), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join(''));
const optionalWhitespace = fc.option(whitespace, { nil: '' });

/** A word: any non-empty text without white space (including combining marks and emoji). */
const word = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).filter((s) => s !== '' && !/\s/u.test(s));

/** The same words laid out twice with independently chosen white space. */
const sameWordsTwoLayouts = fc
  .array(word, { minLength: 1, maxLength: 12 })
  .chain((words) =>
    fc.tuple(
      ...[0, 1].map(() =>
        fc
          .tuple(optionalWhitespace, fc.array(whitespace, { minLength: words.length - 1, maxLength: words.length - 1 }), optionalWhitespace)
          .map(([lead, gaps, tail]) => lead + words.map((w, i) => (i === 0 ? w : (gaps[i - 1] as string) + w)).join('') + tail),
      ),
    ),
  );

describe('fingerprint', () => {
  it('is equal for texts that differ only in white space', () => {
    fc.assert(
      fc.property(sameWordsTwoLayouts, ([a, b]) => {
        expect(normaliseText(a as string)).toBe(normaliseText(b as string));
        expect(fingerprint(a as string)).toBe(fingerprint(b as string));
      }),
      { numRuns: 500 },
    );
  });

  it('differs when a non-white-space character is appended', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.constantFrom('a', 'Z', '7', '.', 'é'), (text, letter) => {
        expect(fingerprint(`${text}${letter}`)).not.toBe(fingerprint(text));
      }),
      { numRuns: 500 },
    );
  });

  it('differs when one ASCII letter is changed', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'abcdefghij klmnop\tq'.split('')), minLength: 1, maxLength: 40 }).filter((s) => /[a-q]/.test(s)),
        fc.nat(),
        (text, pick) => {
          const letters = [...text].flatMap((c, i) => (/[a-q]/.test(c) ? [i] : []));
          const i = letters[pick % letters.length] as number;
          const changed = text.slice(0, i) + (text[i] === 'x' ? 'y' : 'x') + text.slice(i + 1);
          expect(fingerprint(changed)).not.toBe(fingerprint(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('is lowercase hex SHA-256 of the normal form, and keeps case and NFC-equal forms together', () => {
    expect(fingerprint('  Hello \n\t world  ')).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint('  Hello \n\t world  ')).toBe(fingerprint('Hello world'));
    expect(fingerprint('Hello world')).not.toBe(fingerprint('hello world'));
    expect(fingerprint('caf\u00e9')).toBe(fingerprint('cafe\u0301'));
    expect(fingerprint('')).toBe(fingerprint(' \n\u00a0 '));
  });
});
