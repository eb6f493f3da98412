import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ShardedMap } from '../../src/knowledge/retrieval/sharded-map.js';

const word = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('', 'a', 'ship', 'shipping', 'café', 'Größe', '\u{1F600}'));
const op = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), word, value: fc.integer() }),
  fc.record({ kind: fc.constant('delete' as const), word }),
);

describe('ShardedMap', () => {
  it('answers get, has, size and keys as a Map does, through any sequence of sets and deletes', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.array(word, { maxLength: 20 }), (ops, probes) => {
        const sharded = new ShardedMap<number>();
        const map = new Map<string, number>();
        for (const o of ops) {
          if (o.kind === 'set') {
            expect(sharded.set(o.word, o.value)).toBe(sharded);
            map.set(o.word, o.value);
          } else expect(sharded.delete(o.word)).toBe(map.delete(o.word));
          expect(sharded.size).toBe(map.size);
        }
        for (const w of [...probes, ...ops.map((o) => o.word)]) {
          expect(sharded.get(w)).toBe(map.get(w));
          expect(sharded.has(w)).toBe(map.has(w));
        }
        expect([...sharded.keys()].sort()).toEqual([...map.keys()].sort());
      }),
    );
  });

  it('spreads a vocabulary over its shards', () => {
    const sharded = new ShardedMap<number>();
    for (let i = 0; i < 100_000; i++) sharded.set(`w${i.toString(36)}`, i);
    const sizes = (sharded as unknown as { shards: Map<string, number>[] }).shards.map((shard) => shard.size);
    expect(sharded.size).toBe(100_000);
    // No shard holds more than a few times its share (1,563), so none grows as one big map would.
    expect(Math.max(...sizes)).toBeLessThan(6 * (100_000 / sizes.length));
  });
});
