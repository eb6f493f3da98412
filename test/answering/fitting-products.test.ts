/**
 * The sizes that decide whether one product fits another (answering/fitting-products.ts): lengths
 * and voltages, written the ways catalogues write them; not weights, capacities or prices.
 */
import { describe, expect, it } from 'vitest';
import { sizesIn } from '../../src/knowledge/answering/fitting-products.js';

describe('sizesIn', () => {
  it.each([
    ['Specs › Portafilter: 51 mm', ['51 mm']],
    ['Fits: 58 mm baskets, including precision baskets', ['58 mm']],
    ['Diameter: 58.5mm', ['58.5 mm']],
    ['Schnittbreite: 37,5 cm', ['37.5 cm']],
    ['Durchmesser: 1/2 Zoll', ['1/2 in']],
    ['Hose: 3/4" fittings', ['3/4 in']],
    ['Akku: 18 V / 2,0 Ah', ['18 v']],
    ['Weight: 340 g; capacity 1.2 L; £32', []],
    ['Model E48, 2024 edition', []],
    ['5 in stock', []],
    ['A 2 inches wide strap', ['2 in']],
  ])('%j gives %j', (text, sizes) => {
    expect([...sizesIn(text)]).toEqual(sizes);
  });
});
