/**
 * Questions that ask what a thing is made of, read as the word for material the records use
 * (language/material-question.ts); answered from a product's "Material" field in
 * answering/visitor-questions.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { materialAsked } from '../../src/knowledge/language/material-question.js';

const uses = (...words: string[]) => (word: string) => words.includes(word);

describe('materialAsked', () => {
  it('reads the phrase that asks what a thing is made of as the word for material the records use', () => {
    expect(materialAsked('What are the cups made of?', 'en', uses('material'))).toBe('What are the cups material?');
    expect(materialAsked('is the handle made out of wood', 'en', uses('material'))).toBe('is the handle material wood');
    expect(materialAsked('Woraus ist die Kanne?', 'de', uses('Material'))).toBe('Material ist die Kanne?');
    expect(materialAsked('Aus was ist die Schaufel gemacht?', 'de', uses('Material'))).toBe('Material ist die Schaufel gemacht?');
    expect(materialAsked('En quoi est la théière ?', 'fr', uses('matériau'))).toBe('matériau est la théière ?');
    expect(materialAsked("C'est en quoi ?", 'fr', uses('matière'))).toBe("C'est matière ?");
    expect(materialAsked('Elle est faite en quoi ?', 'fr', uses('matière'))).toBe('Elle est faite matière ?');
  });

  it('leaves other phrases, other languages and knowledge bases without the word alone', () => {
    expect(materialAsked('What are the cups made of?', 'en', uses())).toBe('What are the cups made of?');
    expect(materialAsked('Is it made in Italy?', 'en', uses('material'))).toBe('Is it made in Italy?');
    expect(materialAsked('What is the bundle made up of?', 'en', uses('material'))).toBe('What is the bundle made up of?');
    expect(materialAsked("En quoi consiste l'abonnement ?", 'fr', uses('matière'))).toBe("En quoi consiste l'abonnement ?");
    expect(materialAsked('En quoi est-ce différent ?', 'fr', uses('matière'))).toBe('En quoi est-ce différent ?');
    expect(materialAsked('¿De qué está hecho?', 'es', uses('material'))).toBe('¿De qué está hecho?');
  });
});
