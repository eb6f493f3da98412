import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectCorpusLanguage, detectQuestionLanguage } from '../../src/knowledge/language/detect.js';
import { normalizeFor } from '../../src/knowledge/retrieval/tokenize.js';

describe('detectQuestionLanguage', () => {
  it('tells short questions apart by their function words', () => {
    expect(detectQuestionLanguage('Wie lange dauert der Versand nach Österreich?', 'en')).toBe('de');
    expect(detectQuestionLanguage('Fuer wie lange gilt die Garantie?', 'en')).toBe('de');
    expect(detectQuestionLanguage('Est-ce que vous livrez en Suisse ?', 'en')).toBe('fr');
    expect(detectQuestionLanguage('How long does delivery take?', 'de')).toBe('en');
  });

  it('reads an ASCII word as lower-cased in every language, as the one-pass reading of it assumes (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 12 }), (word) => {
        expect(normalizeFor(word, 'en')).toBe(word.toLowerCase());
        expect(normalizeFor(word, 'de')).toBe(word.toLowerCase());
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the knowledge base language for names, numbers and loan words', () => {
    expect(detectQuestionLanguage('café?', 'en')).toBe('en');
    expect(detectQuestionLanguage('Arden 58 mm', 'de')).toBe('de');
    expect(detectQuestionLanguage('', 'fr')).toBe('fr');
  });
});

describe('detectCorpusLanguage', () => {
  it('detects the records’ language, and falls back when there is too little to tell', () => {
    expect(detectCorpusLanguage(['Du kannst Artikel innerhalb von 30 Tagen nach Erhalt kostenlos zurückschicken.', 'Wir liefern nach Deutschland, Österreich und in die Schweiz.'])).toBe('de');
    expect(detectCorpusLanguage(['Nous livrons en France, en Belgique et en Suisse sous trois à cinq jours ouvrés.'])).toBe('fr');
    expect(detectCorpusLanguage(['refund refund refund refund refund refund refund'], 'en')).toBe('en');
  });
});
