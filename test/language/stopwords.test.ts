/**
 * Function words typed with one slip ("wat", "yoru"): the answers are remembered per language
 * (bounded), and must be those of the one-edit look-up itself, however many words came before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeletionIndex } from '../../src/knowledge/language/edits.js';
import { isMisspeltStopWord, STOP_WORDS_BY_LANGUAGE } from '../../src/knowledge/language/stopwords.js';
import { commonRank } from '../../src/knowledge/language/common-words.js';
import { analyzeWords } from '../../src/knowledge/retrieval/tokenize.js';

function reference(word: string, language: string): boolean {
  const stops = STOP_WORDS_BY_LANGUAGE[language];
  if (stops === undefined || word.length < 3 || stops.has(word)) return false;
  return new DeletionIndex([...stops].flatMap((w) => [w, `${w}s`]), 3).neighbours(word).length > 0;
}

describe('isMisspeltStopWord', () => {
  it('takes a slip on a function word for one, not an ordinary word', () => {
    expect(isMisspeltStopWord('yoru', 'en')).toBe(true);
    expect(isMisspeltStopWord('thw', 'en')).toBe(true);
    expect(isMisspeltStopWord('delivery', 'en')).toBe(false);
    expect(isMisspeltStopWord('the', 'en')).toBe(false);
    expect(isMisspeltStopWord('wat', 'xx')).toBe(false);
  });

  it('answers as the look-up does, asked once or again, past the remembered words\' bound (property)', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'e', 'h', 'o', 'r', 't', 'u', 'w', 'y', 's', 'd', 'i'), minLength: 1, maxLength: 14 });
    // Enough distinct words to empty the memory of answers at least once.
    const many = Array.from({ length: 5000 }, (_, i) => `zq${i.toString(36)}`);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 20 }), fc.constantFrom('en', 'de', 'fr'), (words, language) => {
        for (const w of words) expect(isMisspeltStopWord(w, language), w).toBe(reference(w, language));
        for (const w of words) expect(isMisspeltStopWord(w, language), w).toBe(reference(w, language));
      }),
      { numRuns: 100 },
    );
    for (const w of many) isMisspeltStopWord(w, 'en');
    expect(isMisspeltStopWord('yoru', 'en')).toBe(true);
    expect(isMisspeltStopWord('zq0', 'en')).toBe(false);
  });
});

describe('German contractions', () => {
  it('are function words, not rare content words ("fürs Porto", "ins Ausland", "beim Versand")', () => {
    const { surfaces, stops } = analyzeWords('Was zahle ich fürs Porto ins Ausland, ans Lager, aufs Konto und beim Versand?', 'de', 'query');
    const stopped = new Set(surfaces.filter((_, i) => stops[i]));
    for (const w of ['fuers', 'ins', 'ans', 'aufs', 'beim']) expect(stopped.has(w), w).toBe(true);
    for (const w of ['porto', 'ausland', 'lager', 'konto', 'versand']) expect(stopped.has(w), w).toBe(false);
  });

  it('hold the "s" of "gibt\'s" and "geht\'s", which is "es"', () => {
    const { surfaces, stops } = analyzeWords("Gibt's da Rabatt, und geht's auch online?", 'de', 'query');
    expect(surfaces.filter((_, i) => !stops[i])).toEqual(['rabatt', 'geht', 'online']);
  });
});

describe('German typed without the umlauts\' dots', () => {
  it('keeps function words function words ("fur", "uber", "mussen", "konnen") and ordinary words ordinary ("kuche")', () => {
    const stops = STOP_WORDS_BY_LANGUAGE.de as ReadonlySet<string>;
    for (const word of ['fur', 'furs', 'uber', 'mussen', 'konnen', 'mochte', 'wurde']) expect(stops.has(word), word).toBe(true);
    // Only forms of listed words: a word that merely holds "u" is not made a function word.
    expect(stops.has('kunde')).toBe(false);
    expect(commonRank('kuche', 'de')).toBe(commonRank('kueche', 'de'));
    expect(commonRank('schon', 'de')).toBeLessThan(commonRank('schoen', 'de') as number);
  });
});

describe('function words of questions', () => {
  it('include German possessives in every case and the verbs of "wie lautet …?", "habt ihr …?"; French forms of être', () => {
    const german = analyzeWords('Wie lautet eure Nummer, habt ihr meinen Gutschein und unseren Auftrag?', 'de', 'query');
    const stoppedDe = new Set(german.surfaces.filter((_, i) => german.stops[i]));
    for (const w of ['lautet', 'eure', 'habt', 'meinen', 'unseren']) expect(stoppedDe.has(w), w).toBe(true);
    for (const w of ['nummer', 'gutschein', 'auftrag']) expect(stoppedDe.has(w), w).toBe(false);
    const french = analyzeWords('Vous êtes ouverts ? Je suis cliente.', 'fr', 'query');
    const stoppedFr = new Set(french.surfaces.filter((_, i) => french.stops[i]));
    for (const w of ['etes', 'suis']) expect(stoppedFr.has(w), w).toBe(true);
    expect(stoppedFr.has('ouverts')).toBe(false);
  });
});
