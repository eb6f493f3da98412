/**
 * Small numbers as words and as digits (language/number-words.ts): which words are numbers, and
 * where a hyphen makes "one" the number.
 */
import { describe, expect, it } from 'vitest';
import { hyphenedNumbersAsDigits, numberOfWord, wordsOfNumber } from '../../src/knowledge/language/number-words.js';

describe('number words', () => {
  it('reads two to twelve as numbers, not "one", "eins" or "un", which are pronouns and articles first', () => {
    expect(numberOfWord('two', 'en')).toBe(2);
    expect(numberOfWord('twelve', 'en')).toBe(12);
    expect(numberOfWord('sechs', 'de')).toBe(6);
    expect(numberOfWord('fuenf', 'de')).toBe(5);
    expect(numberOfWord('douze', 'fr')).toBe(12);
    expect(numberOfWord('one', 'en')).toBeUndefined();
    expect(numberOfWord('une', 'fr')).toBeUndefined();
    expect(numberOfWord('twenty', 'en')).toBeUndefined();
    expect(numberOfWord('two', 'de')).toBeUndefined();
  });

  it('writes a number from one to twelve as the words of the language', () => {
    expect(wordsOfNumber('1', 'en')).toEqual(['one']);
    expect(wordsOfNumber('2', 'fr')).toEqual(['deux']);
    expect(wordsOfNumber('13', 'en')).toEqual([]);
    expect(wordsOfNumber('0', 'en')).toEqual([]);
    expect(wordsOfNumber('2.5', 'en')).toEqual([]);
  });

  it('writes a number word joined by a hyphen to what it counts as digits, not one joined to a word of its own', () => {
    expect(hyphenedNumbersAsDigits('the one-person and the Two-Person tents', 'en')).toBe('the 1-person and the 2-Person tents');
    expect(hyphenedNumbersAsDigits('a two-year warranty, a four-slice toaster', 'en')).toBe('a 2-year warranty, a 4-slice toaster');
    for (const text of ['a one-time fee', 'two-factor authentication', 'a one-off payment', 'someone-person', 'one person']) expect(hyphenedNumbersAsDigits(text, 'en')).toBe(text);
    expect(hyphenedNumbersAsDigits('ein Zwei-Personen-Zelt', 'de')).toBe('ein Zwei-Personen-Zelt');
  });
});
