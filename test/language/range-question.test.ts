/**
 * Questions about the range (language/range-question.ts): which words ask, which name the kind of
 * product, and whether a qualifier follows; anything else is no such question.
 */
import { describe, expect, it } from 'vitest';
import { askedRange } from '../../src/knowledge/language/range-question.js';

describe('askedRange', () => {
  it.each([
    ['Do you sell espresso machines?', 'en', ['espresso', 'machines'], false],
    ['do u have any milk jugs', 'en', ['milk', 'jugs'], false],
    ['Hi, do you stock paper filters?', 'en', ['paper', 'filters'], false],
    ['What kinds of grinders do you sell?', 'en', ['grinders'], false],
    ['Which kettles do you have in stock?', 'en', ['kettles'], false],
    ['Have you got a hand grinder?', 'en', ['a', 'hand', 'grinder'], false],
    ['Do you sell descaling solution for the espresso machines?', 'en', ['descaling', 'solution'], true],
    ['Habt ihr auch Fahrradschläuche?', 'de', ['fahrradschläuche'], false],
    ['Verkauft ihr Lenker für Rennräder?', 'de', ['lenker'], true],
    ['Welche Sättel habt ihr?', 'de', ['sättel'], false],
    ['Vendez-vous des théières ?', 'fr', ['théières'], false],
    ['Est-ce que vous avez du thé vert ?', 'fr', ['thé', 'vert'], false],
    ['Quels thés proposez-vous ?', 'fr', ['thés'], false],
  ])('%j asks about the range of %s', (question, language, head, qualified) => {
    const asked = askedRange(question, language);
    expect(asked).toBeDefined();
    expect([...(asked?.head ?? [])]).toEqual(head);
    expect(asked?.qualified).toBe(qualified);
    for (const w of head) expect(asked?.words.has(w)).toBe(false);
  });

  it('reads the one asking sentence among sentences that give its context, and only its words ask', () => {
    const after = askedRange('Do you sell bivvy bags? I want to try sleeping out without a tent this summer.', 'en');
    expect([...(after?.head ?? [])]).toEqual(['bivvy', 'bags']);
    expect([...(after?.words ?? [])]).toEqual(['do', 'you', 'sell']);
    expect([...(askedRange('Off to the Lakes next week. Have you got headtorches?', 'en')?.head ?? [])]).toEqual(['headtorches']);
    expect([...(askedRange('Wir fahren im Mai an die Ostsee. Habt ihr Fahrradhelme?', 'de')?.head ?? [])]).toEqual(['fahrradhelme']);
    // Two sentences that ask are two questions, not a question and its context.
    expect(askedRange('Do you sell bivvy bags? And how much is delivery?', 'en')).toBeUndefined();
  });

  it('names the asking words, which the answer need not contain', () => {
    expect([...(askedRange('Do you sell espresso machines?', 'en')?.words ?? [])]).toEqual(['do', 'you', 'sell']);
  });

  it.each([
    ['Do you have the milk jug in a bigger size?', 'en'],
    ['Do you have it in red?', 'en'],
    ['Do you ship to Canada?', 'en'],
    ['Do you sell gift cards and do you ship to Canada and how long does it take to arrive?', 'en'],
    ['How much are the espresso machines?', 'en'],
    ['Habt ihr die Lampe noch?', 'de'],
    ['Vous livrez en Suisse ?', 'fr'],
    ['Do you sell espresso machines?', 'es'],
  ])('%j is no question about the range', (question, language) => {
    expect(askedRange(question, language)).toBeUndefined();
  });
});
