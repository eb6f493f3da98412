/**
 * Payment cards and their networks (src/knowledge/language/payment-cards.ts), and how a question's
 * words meet them (query-expansion.ts).
 */
import { describe, expect, it } from 'vitest';
import { asksAboutPaying, isCardWord, networkNames } from '../../src/knowledge/language/payment-cards.js';
import { KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';

function index(texts: string[]) {
  return KnowledgeIndex.build(texts.map((text, i) => ({ recordId: `r${i}`, title: null, text, sourceName: 's' })));
}

function termsOf(ix: KnowledgeIndex, question: string, surface: string): string[] {
  return ix.expand(question).words.find((w) => w.surface === surface)?.matches.map((m) => m.term) ?? [];
}

describe('payment cards', () => {
  it('knows the word for a card in each language, and the networks under their names', () => {
    for (const w of ['card', 'cards', 'kreditkarte', 'karten', 'carte', 'tarjeta', 'carta', 'kaart', 'cartao']) expect(isCardWord(w), w).toBe(true);
    for (const w of ['cart', 'visa', 'giftcard', 'cardigan']) expect(isCardWord(w), w).toBe(false);
    expect(networkNames('amex')).toEqual(['american express', 'amex']);
    expect(networkNames('visa')).toEqual(['visa']);
    // Ordinary words of a shop's text are not taken for networks.
    expect(networkNames('discover')).toBeUndefined();
    expect(networkNames('diners')).toBeUndefined();
  });

  it('tells a question about paying by its words, in each language', () => {
    expect(asksAboutPaying(['which', 'cards', 'do', 'you', 'take'])).toBe(true);
    expect(asksAboutPaying(['kann', 'ich', 'mit', 'karte', 'zahlen'])).toBe(true);
    expect(asksAboutPaying(['vous', 'acceptez', 'la', 'carte'])).toBe(true);
    expect(asksAboutPaying(['amex'])).toBe(true);
    expect(asksAboutPaying(['do', 'you', 'sell', 'gift', 'cards'])).toBe(false);
    // "Take" asks about paying only with a card or a network: not "how long does delivery take".
    expect(asksAboutPaying(['how', 'long', 'does', 'delivery', 'take'])).toBe(false);
    expect(asksAboutPaying(['do', 'you', 'take', 'cards'])).toBe(true);
    expect(asksAboutPaying(['vous', 'prenez', 'les', 'cheques'])).toBe(true);
    // A clinic's patients pay with their insurance, a shop's customers with vouchers.
    expect(asksAboutPaying(['do', 'you', 'take', 'insurance'])).toBe(true);
    expect(asksAboutPaying(['do', 'you', 'take', 'vouchers'])).toBe(true);
    expect(asksAboutPaying(['does', 'my', 'insurance', 'cover', 'it'])).toBe(false);
  });

  it('meets "cards" in a question about paying with the network most records name, once', () => {
    const ix = index(['We accept Visa, Mastercard and American Express.', 'Visa and Mastercard only in the outlet store.', 'Gift cards are sold in the shop.']);
    // The word itself where the records use it, and one network: a list of four is not four answers.
    const matched = termsOf(ix, 'Which cards do you take?', 'cards');
    expect(matched).toContain('card');
    expect(matched.filter((t) => ['visa', 'mastercard', 'american', 'express'].includes(t))).toHaveLength(1);
    // Not in a question that is not about paying.
    expect(termsOf(ix, 'Do you sell gift cards?', 'cards')).toEqual(['card']);
  });

  it('meets "take" with "accept" only in a question about paying', () => {
    const ix = index(['We accept Visa and Mastercard.', 'Delivery takes 3 to 5 working days.']);
    expect(termsOf(ix, 'Which cards do you take?', 'take')).toContain('accept');
    expect(termsOf(ix, 'How long does delivery take?', 'take')).toEqual(['take']);
  });

  it('meets a network with its other name, and failing that with the others and the word for a card', () => {
    expect(termsOf(index(['We accept Visa and American Express.']), 'Do you take Amex?', 'amex').sort()).toEqual(['american', 'express']);
    const others = termsOf(index(['We accept Visa, Mastercard and all major credit cards.']), 'Do you take Amex?', 'amex');
    expect(others).toEqual(expect.arrayContaining(['visa', 'mastercard', 'card']));
    expect(termsOf(index(['We ship to Canada.']), 'Do you take Amex?', 'amex')).toEqual([]);
  });

  it('meets German and French card words too', () => {
    const de = KnowledgeIndex.build([{ recordId: 'r1', title: null, text: 'Du kannst mit PayPal, Visa oder Mastercard bezahlen. Wir versenden innerhalb von 2 Tagen.', sourceName: 's' }]);
    expect(termsOf(de, 'Kann ich mit Kreditkarte zahlen?', 'kreditkarte').length).toBe(1);
    const fr = KnowledgeIndex.build([{ recordId: 'r1', title: null, text: 'Nous acceptons Visa, Mastercard et PayPal. Livraison en 48 heures.', sourceName: 's' }]);
    expect(termsOf(fr, 'Vous acceptez quelles cartes ?', 'cartes').length).toBe(1);
  });
});
