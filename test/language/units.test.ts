/**
 * Units of measure by name and by symbol (src/knowledge/language/units.ts), and how a question's
 * words meet them (query-expansion.ts): "How many grams…" is answered by "Dose: 18 to 22 g".
 */
import { describe, expect, it } from 'vitest';
import { unitNames, unitSymbol } from '../../src/knowledge/language/units.js';
import { KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';

function termsOf(ix: KnowledgeIndex, question: string, surface: string): string[] {
  return ix.expand(question).words.find((w) => w.surface === surface)?.matches.map((m) => m.term) ?? [];
}

describe('units of measure', () => {
  it('names a unit in each language, and not by words that mean something else too', () => {
    for (const [name, symbol] of [['grams', 'g'], ['gramm', 'g'], ['grammes', 'g'], ['liter', 'l'], ['millilitres', 'ml'], ['watts', 'w'], ['kilos', 'kg'], ['centimetros', 'cm']] as const) {
      expect(unitSymbol(name), name).toBe(symbol);
    }
    for (const word of ['zoll', 'pound', 'pounds', 'bar', 'hours', 'g']) expect(unitSymbol(word), word).toBeUndefined();
    expect(unitNames('ml')).toContain('millilitres');
    expect(unitNames('grams')).toBeUndefined();
  });

  it('meets a unit named in the question with the symbol the records write, and a symbol with the name', () => {
    const specs = KnowledgeIndex.build([
      { recordId: 'basket', title: 'Precision Filter Basket 58 mm', text: 'Size: 58 mm\nDose range: 18 to 22 g', sourceName: 'catalogue.json' },
      { recordId: 'kettle', title: 'Copper Kettle', text: 'Capacity: 1.5 l\nPower: 2200 W', sourceName: 'catalogue.json' },
    ]);
    expect(termsOf(specs, 'How many grams of coffee go in the precision basket?', 'grams')).toEqual(['g']);
    expect(termsOf(specs, 'How many litres does the copper kettle hold?', 'litres')).toEqual(['l']);
    expect(termsOf(specs, 'Wie viele Watt hat der Kupferkessel?', 'watt')).toEqual(['w']);
    // A unit the records do not use is not met.
    expect(termsOf(specs, 'How many kilos is the kettle?', 'kilos')).toEqual([]);
    const prose = KnowledgeIndex.build([{ recordId: 'jug', title: 'Milk jug', text: 'The jug holds 350 millilitres of milk.', sourceName: 'faq.md' }]);
    expect(termsOf(prose, 'Is the jug 350 ml?', 'ml')).toEqual(['millilitr']);
  });
});
