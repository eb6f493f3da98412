import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WordIds } from '../../src/knowledge/retrieval/word-ids.js';

/** A word list with its table, checked against a Map after every step. */
function model() {
  const words: string[] = [];
  const table = new WordIds({ at: (id) => words[id] as string, equals: (id, word) => words[id] === word });
  const map = new Map<string, number>();
  return { words, table, map };
}

describe('WordIds', () => {
  it('finds, replaces and deletes like a Map, whatever the collisions (property)', () => {
    const word = fc.stringMatching(/^[a-e]{1,4}$/);
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), word }),
      fc.record({ kind: fc.constant('delete' as const), word }),
      fc.record({ kind: fc.constant('trim' as const) }),
      // Room made ahead (a stepped load sizes its tables once), however many words follow.
      fc.record({ kind: fc.constant('reserve' as const), count: fc.integer({ min: 0, max: 600 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), fc.boolean(), (ops, wide) => {
        const { words, table, map } = model();
        // Wide ids (past 16 bits) take the table's 32-bit form.
        if (wide) words.length = 70_000;
        for (const o of ops) {
          if (o.kind === 'add' && !map.has(o.word)) {
            words.push(o.word);
            table.set(o.word, words.length - 1);
            map.set(o.word, words.length - 1);
          } else if (o.kind === 'delete') {
            expect(table.delete(o.word)).toBe(map.delete(o.word));
          } else if (o.kind === 'trim') {
            table.trim();
          } else if (o.kind === 'reserve') {
            table.reserve(o.count);
          }
          expect(table.size).toBe(map.size);
        }
        for (const w of new Set([...map.keys(), 'a', 'abcd', 'zz'])) expect(table.get(w)).toBe(map.get(w));
      }),
    );
  });

  it('sizes its slots once for the words reserved (no resize while they are set), 32-bit past 65,534 ids', () => {
    for (const count of [10, 1000, 70_000]) {
      const { words, table } = model();
      table.reserve(count);
      const reserved = table.byteLength;
      for (let i = 0; i < count; i++) {
        words.push(`w${i}`);
        table.set(`w${i}`, i);
      }
      expect(table.byteLength).toBe(reserved);
      for (let i = 0; i < count; i += 97) expect(table.get(`w${i}`)).toBe(i);
      expect(table.get(`w${count}`)).toBeUndefined();
    }
  });

  it('keeps at least four slots for three words, and gives back the slack', () => {
    const { words, table } = model();
    for (let i = 0; i < 1000; i++) {
      words.push(`w${i}`);
      table.set(`w${i}`, i);
    }
    for (let i = 0; i < 820; i++) table.delete(`w${i}`);
    const grown = table.byteLength;
    table.trim();
    expect(table.byteLength).toBeLessThan(grown);
    expect(table.byteLength / 2).toBeGreaterThanOrEqual((180 * 4) / 3);
    // No more than needed: the 180 words left fit in 256 slots (half full would take 512).
    expect(table.byteLength / 2).toBe(256);
    for (let i = 820; i < 1000; i++) expect(table.get(`w${i}`)).toBe(i);
    expect(table.get('w1')).toBeUndefined();
  });
});
