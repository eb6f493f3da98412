import { describe, expect, it } from 'vitest';
import { askedOrder, priceValue, volumeValue, weightValue } from '../../src/knowledge/language/product-order.js';

describe('questions that ask for the cheapest, the dearest, the lightest or the heaviest', () => {
  it.each([
    ['Which of your grinders is the cheapest one?', 'en', 'lowest', 'price', ['cheapest']],
    ["What's the least expensive tamper you sell?", 'en', 'lowest', 'price', ['least', 'expensive']],
    ['your most affordable kettle?', 'en', 'lowest', 'price', ['most', 'affordable']],
    ['What is your most expensive espresso machine?', 'en', 'highest', 'price', ['most', 'expensive']],
    ['priciest grinder', 'en', 'highest', 'price', ['priciest']],
    ['Was ist eure günstigste Mühle?', 'de', 'lowest', 'price', ['günstigste']],
    ['Welche Kanne ist am billigsten?', 'de', 'lowest', 'price', ['am', 'billigsten']],
    ['Was ist das teuerste Modell?', 'de', 'highest', 'price', ['teuerste']],
    ['Quel est le moulin le moins cher ?', 'fr', 'lowest', 'price', ['le', 'moins', 'cher']],
    ['Quelle est la bouilloire la plus chère ?', 'fr', 'highest', 'price', ['la', 'plus', 'chère']],
    // Phrases ending in "é": a word edge there is no \b (ASCII only).
    ['Quel est le thé le meilleur marché ?', 'fr', 'lowest', 'price', ['meilleur', 'marché']],
    ['Quel thé a le prix le plus élevé ?', 'fr', 'highest', 'price', ['prix', 'le', 'plus', 'élevé']],
    ["What's your lightest tent?", 'en', 'lowest', 'weight', ['lightest']],
    ['Which rucksack is the heaviest?', 'en', 'highest', 'weight', ['heaviest']],
    ['Welches ist das leichteste Zelt?', 'de', 'lowest', 'weight', ['leichteste']],
    ['Welcher Rucksack ist am schwersten?', 'de', 'highest', 'weight', ['am', 'schwersten']],
    ['Quelle est la tente la plus légère ?', 'fr', 'lowest', 'weight', ['la', 'plus', 'légère']],
    ['Quel sac est le plus lourd ?', 'fr', 'highest', 'weight', ['le', 'plus', 'lourd']],
    // A comparative after an article picks one of a kind, as the superlative does.
    ['On the cheaper walking sticks, how do you adjust the length?', 'en', 'lowest', 'price', ['the', 'cheaper']],
    ['How much is the more expensive grinder?', 'en', 'highest', 'price', ['the', 'more', 'expensive']],
    ['Which is the heavier tent?', 'en', 'highest', 'weight', ['the', 'heavier']],
    ['Wie stark schneidet die günstigere Astschere?', 'de', 'lowest', 'price', ['die', 'günstigere']],
    ['Was wiegt der leichtere Rasenmäher?', 'de', 'lowest', 'weight', ['der', 'leichtere']],
    ['Hält den schwereren Rucksack jemand aus?', 'de', 'highest', 'weight', ['den', 'schwereren']],
    // The biggest holds the most.
    ["What's the biggest milk jug?", 'en', 'highest', 'capacity', ['biggest']],
    ['Which is the smallest jug?', 'en', 'lowest', 'capacity', ['smallest']],
    ['Was ist die größte Gießkanne?', 'de', 'highest', 'capacity', ['größte']],
    ['Welche Regentonne ist am größten?', 'de', 'highest', 'capacity', ['am', 'größten']],
    ['Welches ist die kleinste Kanne?', 'de', 'lowest', 'capacity', ['kleinste']],
    ['Quelle est la théière la plus grande ?', 'fr', 'highest', 'capacity', ['la', 'plus', 'grande']],
  ])('%s (%s) asks for the %s %s', (question, language, order, by, words) => {
    const asked = askedOrder(question, language);
    expect(asked?.order).toBe(order);
    expect(asked?.by).toBe(by);
    expect([...(asked?.words ?? [])]).toEqual(words);
  });

  it.each([
    ['Is shipping cheap to Canada?', 'en'],
    ['Is the E64 expensive to repair?', 'en'],
    ['How much is the cheapest option?', 'nl'],
    ['Ist der Versand teuer?', 'de'],
    ['Est-ce que la livraison est chère ?', 'fr'],
    ['Pouvez-vous livrer plus vite ?', 'fr'],
    ['Is the tent light?', 'en'],
    ['Does the headtorch have a light mode?', 'en'],
    // Compared with something else, not picking one of a kind.
    ['Will you price match if I find the same kettle cheaper somewhere else?', 'en'],
    ['Is the carbon pole lighter than the aluminium one?', 'en'],
    ['Do you sell the lighter for the stove?', 'en'],
    ['Ist die Lieferung ins Ausland teurer?', 'de'],
  ])('%s (%s) asks for no order', (question, language) => {
    expect(askedOrder(question, language)).toBeUndefined();
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

  it.each([
    ['1.35 kg', 1350],
    ['460 g per pair', 460],
    ['1,2 kg', 1200],
    ['12 oz', 12 * 28.349523125],
    ['2 lbs', 2 * 453.59237],
    ['900g', 900],
    ['1,2 Kilo', 1200],
    ['230 Gramm', 230],
    ['3 pounds', 3 * 453.59237],
  ])('reads the weight %s as %d g', (text, grams) => {
    expect(weightValue(text)).toBeCloseTo(grams, 6);
  });

  it('reads no weight from a value without a unit of mass', () => {
    expect(weightValue('42 x 14 cm')).toBeUndefined();
    expect(weightValue('4G signal')).toBeUndefined();
    expect(weightValue('light')).toBeUndefined();
  });

  it('reads no number from a price without one', () => {
    expect(priceValue('on request')).toBeUndefined();
    expect(priceValue('')).toBeUndefined();
  });

  it.each([
    ['950 ml', 950],
    ['1.2 L', 1200],
    ['ca. 650 l', 650000],
    ['40 Liter', 40000],
    ['1,5 litres', 1500],
    ['33 cl', 330],
    ['4 people', undefined],
  ])('reads the volume %s as %s ml', (text, ml) => {
    expect(volumeValue(text)).toBe(ml);
  });
});
