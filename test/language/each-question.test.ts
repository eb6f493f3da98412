/**
 * Questions that ask the same of each of several things (language/each-question.ts): which words
 * ask, and that a quantifier that ranges over something else is no such question.
 */
import { describe, expect, it } from 'vitest';
import { askedOfEach } from '../../src/knowledge/language/each-question.js';

describe('askedOfEach', () => {
  it.each([
    ['How much do both grinders weigh?', 'en', ['both']],
    ["What's the capacity of each of your milk jugs?", 'en', ['each']],
    ['What burrs do all your grinders have?', 'en', ['all']],
    ['Are all of the kettles induction-ready?', 'en', ['all']],
    ['Does every tent come with pegs?', 'en', ['every']],
    ['Wie dicke Äste schaffen eure beiden Astscheren jeweils?', 'de', ['beiden', 'jeweils']],
    ['Wie schwer sind alle eure Mäher?', 'de', ['alle']],
    ['Quelle est la contenance de chacune de vos bouilloires ?', 'fr', ['chacune']],
    ['Combien coûtent les deux tentes ?', 'fr', ['les', 'deux']],
    ['Toutes vos tentes sont-elles imperméables ?', 'fr', ['toutes']],
  ])('%j asks of each (%s)', (question, language, words) => {
    expect([...(askedOfEach(question, language) ?? [])]).toEqual(words);
  });

  it.each([
    ['Is that all?', 'en'],
    ['Are you open all day on Saturday?', 'en'],
    ['Do you deliver every day?', 'en'],
    ['Is the price per person each night?', 'en'],
    ['How much is the hand grinder?', 'en'],
    ['Habt ihr alles auf Lager?', 'de'],
    ['Vous êtes ouverts tous les jours ?', 'fr'],
    ['Do you sell grinders?', 'es'],
  ])('%j asks nothing of each (%s)', (question, language) => {
    expect(askedOfEach(question, language)).toBeUndefined();
  });
});
