import { describe, expect, it } from 'vitest';
import { answerTypesIn, askedAnswerTypes } from '../../src/knowledge/language/answer-types.js';

describe('kinds of answer', () => {
  it.each([
    ['How long do I have to return something?', 'en', ['duration']],
    ['how soon will it arrive', 'en', ['duration']],
    ['How much is shipping to Canada?', 'en', ['amount']],
    ['Wie lange dauert der Versand?', 'de', ['duration']],
    ['wieviel kostet das Porto', 'de', ['amount']],
    ["J'ai combien de temps pour renvoyer un article ?", 'fr', ['duration']],
    ['Combien coûte la livraison en Suisse ?', 'fr', ['amount']],
    ['Do you ship to Mexico?', 'en', []],
    ['Is the kettle long enough?', 'en', []],
    ['How long do I have to return something?', 'nl', []],
    ['How much coffee do the little cups hold?', 'en', ['amount', 'quantity']],
    ['How many filters are in one box?', 'en', ['quantity']],
    ['How much does the tamper cost?', 'en', ['amount']],
    ['how much extra is express delivery', 'en', ['amount']],
    ['Wie viele Filter sind in einer Packung?', 'de', ['quantity']],
    ["Combien d'articles puis-je commander ?", 'fr', ['quantity']],
  ])('%s (%s) asks for %j', (question, language, types) => {
    expect(askedAnswerTypes(question, language)).toEqual(types);
  });

  it.each([
    ['Returns are accepted within 30 days of delivery.', ['duration', 'quantity']],
    ['Orders arrive in 3 to 7 business days.', ['duration', 'quantity']],
    ['Every kettle carries a two-year warranty.', ['duration']],
    ['Standard UK delivery costs £3.95 and takes 2–4 working days.', ['duration', 'amount', 'quantity']],
    ['Die Erstattung erfolgt innerhalb von 5 Werktagen.', ['duration', 'quantity']],
    ['Der Versand kostet 4,95 € und ist ab 59 € kostenlos.', ['amount', 'quantity']],
    ['Vous avez 14 jours pour retirer votre colis ; livraison en 48 h.', ['duration', 'quantity']],
    ['Les frais de port sont de 3,90 € en point relais.', ['amount', 'quantity']],
    ['We accept Visa, Mastercard and PayPal.', []],
    ['Our shop is open on Sundays and Mondays.', []],
    ['Capacity: 80 ml', ['quantity']],
    ['Each box holds 100 filters.', ['quantity']],
    ['Shipping is free of charge.', ['amount']],
  ])('finds in %s: %j', (text, types) => {
    expect(answerTypesIn(text)).toEqual(types);
  });
});
