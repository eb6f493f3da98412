/**
 * A language's misspelling index (its 10,000 common words by one-edit neighbourhood, ~60 ms at once)
 * is made in time slices by the first question that needs it, which scans the words meanwhile:
 * the answers are the same before and after it is there. Each test first drops the index another
 * test file may have made (the suite's workers share modules).
 */
import { describe, expect, it } from 'vitest';
import * as words from '../../src/knowledge/language/common-words.js';

const PROBES: Record<string, string[]> = {
  de: ['versandkostn', 'morgn', 'heutr', 'wiedr', 'immmer', 'bestelung', 'garantei', 'xqzv'],
  fr: ['livraisn', 'rembourssement', 'commnde', 'paiment', 'garantie', 'retourr', 'xqzv'],
};

describe('common words: the misspelling index of a language not loaded at start-up', () => {
  it.each(Object.keys(PROBES))('(%s) is made in slices, not by the first look-up, with the same answers before and after', async (language) => {
    await words.forgetTypoIndex(language);
    const probes = PROBES[language] as string[];
    expect(words.commonWordsHeld().typoIndexes).not.toContain(language);
    const before = probes.map((p) => words.commonWordMisspelt(p, language));
    // The look-up scanned; the index is being made, not made.
    expect(words.commonWordsHeld().typoIndexes).not.toContain(language);
    await words.typoIndexSettled(language);
    expect(words.commonWordsHeld().typoIndexes).toContain(language);
    const after = probes.map((p) => words.commonWordMisspelt(p, language));
    expect(after).toEqual(before);
    expect(before.filter((w) => w !== undefined).length).toBeGreaterThan(2);
  });

  it('is made at once for the languages start-up asks for', async () => {
    await words.forgetTypoIndex('en');
    words.loadCommonWords(['en']);
    expect(words.commonWordsHeld().typoIndexes).toContain('en');
    expect(words.commonWordMisspelt('somthing', 'en')).toBe('something');
  });
});
