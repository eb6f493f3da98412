import { describe, expect, it } from 'vitest';
import { analyze, normalizeText, analyzeSurface, tokenize } from '../../src/knowledge/retrieval/tokenize.js';

describe('normalizeText', () => {
  it('lower-cases, applies NFKC and strips diacritics', () => {
    expect(normalizeText('Café CRÈME')).toBe('cafe creme');
    expect(normalizeText('ＡＢＣ ﬁle')).toBe('abc file');
    expect(normalizeText('Straße Øresund')).toBe('strasse oresund');
  });

  it('keeps Indic vowel signs (not diacritics)', () => {
    expect(normalizeText('हिन्दी')).toBe('हिन्दी');
  });
});

describe('tokenize', () => {
  it('stems English words and keeps numbers', () => {
    expect(tokenize('Refunds are processed in 30 days')).toEqual(['refund', 'ar', 'process', 'in', '30', 'dai']);
  });

  it('splits at apostrophes and punctuation', () => {
    expect(tokenize("customer's order-id: 42")).toEqual(['custom', 's', 'order', 'id', '42']);
  });

  it('indexes CJK runs as unigrams and bigrams; queries use bigrams', () => {
    expect(tokenize('退货政策')).toEqual(['退', '退货', '货', '货政', '政', '政策', '策']);
    expect(tokenize('退货政策', 'query')).toEqual(['退货', '货政', '政策']);
    expect(tokenize('猫', 'query')).toEqual(['猫']);
  });

  it('separates CJK from Latin inside one "word"', () => {
    expect(tokenize('iPhone手机')).toEqual(['iphon', '手', '手机', '机']);
  });

  it('does not stem non-English scripts', () => {
    expect(tokenize('Привет мир')).toEqual(['привет', 'мир']);
    expect(tokenize('مرحبا بالعالم')).toEqual(['مرحبا', 'بالعالم']);
  });

  it('flags stop-words on the surface form', () => {
    expect(analyze('What does the deer do').map((t) => [t.term, t.stop])).toEqual([
      ['what', true],
      ['doe', true],
      ['the', true],
      ['deer', false],
      ['do', true],
    ]);
  });

  it('caps very long words', () => {
    const [term] = tokenize('x'.repeat(500));
    expect(term).toHaveLength(64);
  });

  it('never throws on hostile input', () => {
    const inputs = ['', '\u0000\u0001\u001f', '\ud800 lone surrogate \udfff', '🎉🔥👩‍👩‍👧', '\u202eRTL override\u202c', 'a'.repeat(10_000), ' '.repeat(10_000)];
    for (const s of inputs) expect(() => tokenize(s)).not.toThrow();
  });
});

describe('analyzeSurface', () => {
  it('separates content words from stop-words and keeps each surface form', () => {
    const tokens = analyzeSurface('What is the refund policy for refunds?');
    expect(tokens.filter((t) => !t.stop).map((t) => [t.surface, t.term])).toEqual([
      ['refund', 'refund'],
      ['policy', 'polici'],
      ['refunds', 'refund'],
    ]);
    expect(tokens.filter((t) => t.stop).map((t) => t.term)).toEqual(['what', 'is', 'the', 'for']);
  });

  it('returns nothing for an empty query', () => {
    expect(analyzeSurface('  ?! ')).toEqual([]);
  });

  it('analyses German with the German stemmer and umlauts as ae/oe/ue', () => {
    const [word] = analyzeSurface('Rückgabe', 'de');
    expect(word?.surface).toBe('rueckgabe');
    expect(analyzeSurface('rueckgabe', 'de')[0]?.term).toBe(word?.term);
  });

  it('never stems an English word onto a function word of another meaning ("use" is not "us", "one" not "on")', () => {
    const term = (w: string) => analyzeSurface(w, 'en')[0]?.term;
    for (const form of ['uses', 'used', 'using']) expect(term(form), form).toBe(term('use'));
    expect(term('use')).not.toBe(term('us'));
    expect(term('ones')).toBe(term('one'));
    expect(term('one')).not.toBe(term('on'));
    expect(term('willing')).not.toBe(term('will'));
    expect(term('ate')).not.toBe(term('at'));
    // Porter's own stems stay for every other word.
    expect(term('returns')).toBe('return');
  });

  it('reads an English "US" in capitals as the country and "us" as the pronoun, unless the line is shouted', () => {
    const words = (text: string) => analyzeSurface(text, 'en').map((w) => `${w.term}${w.stop ? '/stop' : ''}`);
    expect(words('We ship within the US.')).toContain('usa');
    expect(words('Email us today')).toContain('us/stop');
    expect(words('CONTACT US\nWe ship to the US.')).toEqual(['contact', 'us/stop', 'we/stop', 'ship', 'to/stop', 'the/stop', 'usa']);
    // Other languages are left alone.
    expect(analyzeSurface('Versand in die US', 'de').map((w) => w.term)).toContain('us');
  });

  it('never stems a German or French content word onto a function word ("Sicherheit" is not "sich", "nächste" not "nach")', () => {
    const de = (w: string) => analyzeSurface(w, 'de')[0]?.term;
    expect(de('Sicherheit')).toBe(de('sicher'));
    expect(de('Sicherheit')).not.toBe(de('sich'));
    expect(de('nächsten')).toBe(de('nächste'));
    expect(de('nächste')).not.toBe(de('nach'));
    expect(de('Versand')).toBe('versand');
    const fr = (w: string) => analyzeSurface(w, 'fr')[0]?.term;
    expect(fr('danse')).not.toBe(fr('dans'));
  });

  it('stems a German plural with an umlaut as its singular, however the umlaut is typed', () => {
    const term = (w: string) => analyzeSurface(w, 'de')[0]?.term;
    for (const [singular, plural] of [
      ['Vertrag', 'Verträge'],
      ['Handtuch', 'Handtücher'],
      ['Land', 'Länder'],
      ['Buch', 'Buecher'],
      ['groß', 'größer'],
    ] as const) expect(term(plural), plural).toBe(term(singular));
    // "eu", "au" and "qu" before an "e" are no umlauts: "teuer" is not "tur", "Quelle" not "qulle".
    expect(term('Quelle')).toBe('quell');
    expect(term('teuer')).not.toBe(term('tur'));
  });
});
