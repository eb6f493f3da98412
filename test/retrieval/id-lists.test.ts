/**
 * Id lists of the query caches (id-lists.ts): ids below 65,536 kept as a string's code units
 * (surrogate values and 0 included) read back exactly; a larger id keeps them in an Int32Array.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idAt, idList } from '../../src/knowledge/retrieval/id-lists.js';

const readBack = (ids: readonly number[]) => {
  const list = idList(ids);
  return { list, values: Array.from({ length: list.length }, (_, i) => idAt(list, i)) };
};

describe('idList', () => {
  it('gives back every id below 65,536 from a string, whatever the code unit (property)', () => {
    const id = fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(0, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffe, 0xffff));
    fc.assert(
      fc.property(fc.array(id, { maxLength: 300 }), (ids) => {
        const { list, values } = readBack(ids);
        expect(typeof list).toBe('string');
        expect(values).toEqual(ids);
      }),
      { numRuns: 300 },
    );
  });

  it('holds longer lists than one conversion takes, and ids past 16 bits in an Int32Array', () => {
    const long = Array.from({ length: 10_000 }, (_, i) => (i * 7919) % 65_536);
    expect(readBack(long).values).toEqual(long);
    const wide = [3, 70_000, 0, 65_536];
    const { list, values } = readBack(wide);
    expect(list).toBeInstanceOf(Int32Array);
    expect(values).toEqual(wide);
  });
});
