import { describe, expect, it } from 'vitest';
import { askedPriceOrder, priceValue } from '../../src/knowledge/language/price-order.js';

describe('questions that ask for the cheapest or the dearest', () => {
  it.each([
    ['Which of your grinders is the cheapest one?', 'en', 'lowest', ['cheapest']],
    ["What's the least expensive tamper you sell?", 'en', 'lowest', ['least', 'expensive']],
    ['your most affordable kettle?', 'en', 'lowest', ['most', 'affordable']],
    ['What is your most expensive espresso machine?', 'en', 'highest', ['most', 'expensive']],
    ['priciest grinder', 'en', 'highest', ['priciest']],
    ['Was ist eure günstigste Mühle?', 'de', 'lowest', ['günstigste']],
    ['Welche Kanne ist am billigsten?', 'de', 'lowest', ['am', 'billigsten']],
    ['Was ist das teuerste Modell?', 'de', 'highest', ['teuerste']],
    ['Quel est le moulin le moins cher ?', 'fr', 'lowest', ['le', 'moins', 'cher']],
    ['Quelle est la bouilloire la plus chère ?', 'fr', 'highest', ['la', 'plus', 'chère']],
    // Phrases ending in "é": a word edge there is no \b (ASCII only).
    ['Quel est le thé le meilleur marché ?', 'fr', 'lowest', ['meilleur', 'marché']],
    ['Quel thé a le prix le plus élevé ?', 'fr', 'highest', ['prix', 'le', 'plus', 'élevé']],
  ])('%s (%s) asks for the %s price', (question, language, order, words) => {
    const asked = askedPriceOrder(question, language);
    expect(asked?.order).toBe(order);
    expect([...(asked?.words ?? [])]).toEqual(words);
  });

  it.each([
    ['Is shipping cheap to Canada?', 'en'],
    ['Is the E64 expensive to repair?', 'en'],
    ['How much is the cheapest option?', 'nl'],
    ['Ist der Versand teuer?', 'de'],
    ['Est-ce que la livraison est chère ?', 'fr'],
    ['Pouvez-vous livrer plus vite ?', 'fr'],
  ])('%s (%s) asks for no order', (question, language) => {
    expect(askedPriceOrder(question, language)).toBeUndefined();
  });

  it.each([
    ['£129', 129],
    ['£1,299.00', 1299],
    ['129,90 €', 129.9],
    ['1.299 €', 1299],
    ['1.299,50 €', 1299.5],
    ['CHF 45', 45],
    ["CHF 1'250", 1250],
    ['$5.5', 5.5],
  ])('reads %s as %d', (price, value) => {
    expect(priceValue(price)).toBe(value);
  });

  it('reads no number from a price without one', () => {
    expect(priceValue('on request')).toBeUndefined();
    expect(priceValue('')).toBeUndefined();
  });
});
