/**
 * Which real words may be typing slips for another (src/knowledge/language/typing-slips.ts), and
 * that only those are matched as real-word slips (retrieval/word-forms.ts `realWordSlips`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { areNeighbourKeys, isTypingSlip } from '../../src/knowledge/language/typing-slips.js';
import { withinOneEdit } from '../../src/knowledge/language/edits.js';
import { KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';

describe('typing slips', () => {
  it('are two letters swapped, a letter added or left out, or a neighbouring key', () => {
    expect(isTypingSlip('trail', 'trial')).toBe(true);
    expect(isTypingSlip('loose', 'lose')).toBe(true);
    expect(isTypingSlip('adress', 'address')).toBe(true);
    expect(isTypingSlip('bikr', 'bike')).toBe(true); // r beside e
    expect(isTypingSlip('kaufen', 'laufen')).toBe(false); // the first letter
  });

  it('are not other words one edit away', () => {
    for (const [typed, meant] of [
      ['weather', 'leather'],
      ['fille', 'ville'],
      ['femme', 'ferme'],
      ['rasen', 'rosen'],
      ['laden', 'lagen'],
      ['mitte', 'bitte'],
      ['kenne', 'keine'],
      ['pound', 'found'],
      ['change', 'charge'],
      ['ground', 'around'],
    ] as const) {
      expect(isTypingSlip(typed, meant), `${typed} / ${meant}`).toBe(false);
    }
  });

  it('know the keys of QWERTY, QWERTZ and AZERTY', () => {
    expect(areNeighbourKeys('e', 'r')).toBe(true);
    expect(areNeighbourKeys('z', 'u')).toBe(true); // QWERTZ
    expect(areNeighbourKeys('m', 'l')).toBe(true); // AZERTY
    expect(areNeighbourKeys('a', 'z')).toBe(true); // AZERTY's first row, QWERTY's a above z
    expect(areNeighbourKeys('m', 'r')).toBe(false);
    expect(areNeighbourKeys('é', 'e')).toBe(false);
  });

  it('are always one edit, never the same word, and keep the first letter (property)', () => {
    const word = fc.stringMatching(/^[a-z]{2,9}$/);
    fc.assert(
      fc.property(word, word, (a, b) => {
        if (!isTypingSlip(a, b)) return;
        expect(a).not.toBe(b);
        expect(a[0]).toBe(b[0]);
        expect(withinOneEdit(a, b)).toBe(true);
        // A slip one way is a slip the other way.
        expect(isTypingSlip(b, a)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('are what a question’s ordinary word may meet as another word of the records', () => {
    const english = KnowledgeIndex.build([
      { recordId: 'trial', sourceName: 'faq.md', title: 'Free trial', text: 'Every free trial ends after 14 days. Items left on a bike are kept once found.' },
    ], { language: 'en' });
    const french = KnowledgeIndex.build([
      { recordId: 'acces', sourceName: 'faq.md', title: 'Accès', text: 'Le camping est à 2 km de la ville. Le bus passe deux fois par jour.' },
    ], { language: 'fr' });
    const matches = (index: KnowledgeIndex, q: string) => new Map(index.expand(q).words.map((w) => [w.surface, w.matches.map((m) => m.term)]));
    expect(matches(english, 'when does my free trail end').get('trail')).toContain('trial');
    // "pound" is one edit from "found", by the first letter: another word, not a slip.
    expect(matches(english, 'how much is it in pound').get('pound') ?? []).not.toContain('found');
    // "fille" is one edit from "ville", by the first letter too.
    expect(matches(french, 'ma fille peut venir ?').get('fille') ?? []).not.toContain('vill');
  });
});
