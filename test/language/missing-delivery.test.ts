/**
 * A delivery that has not come ("My parcel never arrived"): the words that ask after it
 * (language/missing-delivery.ts); answered from the records' lost or late order in
 * answering/visitor-questions.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { missingDeliveryAsking, missingDeliveryWords } from '../../src/knowledge/language/missing-delivery.js';

describe('missingDeliveryAsking', () => {
  it('finds the negation, the verb and the words for the delivery, in English, German and French', () => {
    expect(missingDeliveryAsking('My parcel never arrived', 'en')).toBe('never arrived parcel');
    expect(missingDeliveryAsking("I haven't received my order yet", 'en')).toBe("haven't received order");
    expect(missingDeliveryAsking("my package still hasn't turned up", 'en')).toBe("hasn't turned up package");
    expect(missingDeliveryAsking('Mein Paket ist nicht angekommen', 'de')).toBe('nicht angekommen paket');
    expect(missingDeliveryAsking('Mein Paket kommt einfach nicht an', 'de')).toBe('kommt einfach nicht an paket');
    expect(missingDeliveryAsking("Je n'ai jamais reçu ma commande", 'fr')).toBe('jamais reçu commande');
    expect(missingDeliveryAsking("Mon colis n'est toujours pas arrivé", 'fr')).toBe('pas arrivé colis');
  });

  it('asks nothing of a delivery that came, of a refund, or in a language without the phrases', () => {
    expect(missingDeliveryAsking('My item arrived damaged', 'en')).toBeUndefined();
    expect(missingDeliveryAsking('I never got my refund', 'en')).toBeUndefined();
    expect(missingDeliveryAsking('When will my order arrive?', 'en')).toBeUndefined();
    expect(missingDeliveryAsking('Meine Ware ist beschädigt angekommen', 'de')).toBeUndefined();
    expect(missingDeliveryAsking('Mi pedido nunca llegó', 'es')).toBeUndefined();
    expect(missingDeliveryWords('es')).toEqual([]);
  });
});
