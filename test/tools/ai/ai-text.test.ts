import { describe, expect, it } from 'vitest';
import { characterCount, sentences, spellings, terms, words } from '../../../src/tools/shared/ai-text.js';
import { pieces } from '../../../src/tools/shared/segments.js';

describe('shared text splitting', () => {
  it('cuts long texts into pieces that join back exactly, at sentence ends when it can', () => {
    const text = 'First sentence here. Second one follows!\nThird, on a new line? '.repeat(200);
    const parts = [...pieces(text, 500)];
    expect(parts.join('')).toBe(text);
    for (const part of parts.slice(0, -1)) {
      expect(part.length).toBeLessThanOrEqual(500);
      expect(part).toMatch(/([.!?] +|\n)$/);
    }
  });

  it('never splits a surrogate pair, even in a text without spaces', () => {
    const text = '😀'.repeat(1500);
    const parts = [...pieces(text, 999)];
    expect(parts.join('')).toBe(text);
    for (const part of parts) expect(part.length % 2).toBe(0);
  });

  it('counts the same on long texts as piece by piece', () => {
    const sentence = 'Ünïcode words, 東京 and 👋🏽 emoji in one sentence. ';
    const text = sentence.repeat(400);
    expect(words(text)).toHaveLength(words(sentence).length * 400);
    expect(sentences(text)).toHaveLength(400);
    expect(characterCount(text)).toBe(characterCount(sentence) * 400);
  });

  it('stems English content words, drops stop words and numbers, keeps other scripts as written', () => {
    expect(terms('The farmers were farming 42 farms; don’t stop')).toEqual(['farmer', 'farm', 'farm', 'stop']);
    expect(terms('Привет мир')).toEqual(['привет', 'мир']);
    expect(spellings('Farms and farming').get('farm')).toBe('farms');
  });
});
