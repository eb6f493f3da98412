/**
 * Units of measure by name and by symbol (src/knowledge/language/units.ts), and how a question's
 * words meet them (query-expansion.ts): "How many grams…" is answered by "Dose: 18 to 22 g".
 */
import { describe, expect, it } from 'vitest';
import { numbersApartFromUnits, unitNames, unitSymbol } from '../../src/knowledge/language/units.js';
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

  it('reads a number written against a unit\'s symbol as the number and the unit ("51mm" is "51 mm"), unless the records write it so', () => {
    const unused = () => false;
    expect(numbersApartFromUnits('How much is the 51mm tamper?', unused)).toBe('How much is the 51 mm tamper?');
    expect(numbersApartFromUnits('Passt der 1,2L Tank? Und 600ml?', unused)).toBe('Passt der 1,2 L Tank? Und 600 ml?');
    // Not inside a word or an identifier, nor where the knowledge base writes it glued.
    expect(numbersApartFromUnits('Is it a 5G phone on the B58m line?', unused)).toBe('Is it a 5G phone on the B58m line?');
    expect(numbersApartFromUnits('a 20KG bag, a 2m hose, a 12V pump', unused)).toBe('a 20 KG bag, a 2 m hose, a 12 V pump');
    expect(numbersApartFromUnits('Is the A4mm model back?', unused)).toBe('Is the A4mm model back?');
    expect(numbersApartFromUnits('Do you stock the 51mm?', (w) => w === '51mm')).toBe('Do you stock the 51mm?');
    const tampers = KnowledgeIndex.build([
      { recordId: 't58', title: 'Tamper 58.5 mm', text: 'Diameter: 58.5 mm\nFits: 58 mm baskets\nPrice: £38', sourceName: 'catalogue.json' },
      { recordId: 't51', title: 'Tamper 51 mm', text: 'Diameter: 51 mm\nFits: 51 mm baskets\nPrice: £32', sourceName: 'catalogue.json' },
    ]);
    expect(tampers.search('Which tamper fits a 51mm basket?', 2)[0]?.recordId).toBe('t51');
    expect(tampers.expand('Which tamper fits a 51mm basket?').words.map((w) => w.surface)).toEqual(expect.arrayContaining(['51', 'mm']));
  });
});
