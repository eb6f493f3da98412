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
  ])('%s (%s) asks for %j', (question, language, types) => {
    expect(askedAnswerTypes(question, language)).toEqual(types);
  });

  it.each([
    ['Returns are accepted within 30 days of delivery.', ['duration']],
    ['Orders arrive in 3 to 7 business days.', ['duration']],
    ['Every kettle carries a two-year warranty.', ['duration']],
    ['Standard UK delivery costs £3.95 and takes 2–4 working days.', ['duration', 'amount']],
    ['Die Erstattung erfolgt innerhalb von 5 Werktagen.', ['duration']],
    ['Der Versand kostet 4,95 € und ist ab 59 € kostenlos.', ['amount']],
    ['Vous avez 14 jours pour retirer votre colis ; livraison en 48 h.', ['duration']],
    ['Les frais de port sont de 3,90 € en point relais.', ['amount']],
    ['We accept Visa, Mastercard and PayPal.', []],
    ['Our shop is open on Sundays and Mondays.', []],
  ])('finds in %s: %j', (text, types) => {
    expect(answerTypesIn(text)).toEqual(types);
  });
});
