import { describe, expect, it } from 'vitest';
import { askedSizeWord } from '../../src/knowledge/language/size-question.js';

describe('questions that ask for a size', () => {
  it.each([
    ['Wie groß ist das Hochbeet?', 'de', 'groß'],
    ['wie gross sind die Töpfe', 'de', 'gross'],
    ['Wie große Töpfe passen hinein?', 'de', 'große'],
    ['How big is the tent when packed?', 'en', 'big'],
    ['how large is the water tank', 'en', 'large'],
  ])('%s (%s) asks with "%s"', (question, language, word) => {
    expect(askedSizeWord(question, language)).toBe(word);
  });

  it.each([
    ['Habt ihr eine große Auswahl?', 'de'],
    ['Ist der Rasenmäher groß genug für 400 m²?', 'de'],
    ['Is the tent big enough for three?', 'en'],
    ['Quelle est la taille du sac ?', 'fr'],
  ])('%s (%s) asks for none', (question, language) => {
    expect(askedSizeWord(question, language)).toBeUndefined();
  });
});
