/**
 * The records' ids and texts held as a snapshot's runs (string-column.ts; issue 14, head of line
 * while a large index loads; docs/indexing.md "Session 21"): no string per record is kept by a
 * load, each is made as it is read. What is read must be exactly what was stored, before and after
 * records are removed, replaced and added and the slots renumbered, and a run no slot reads any
 * more is let go.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeIndexSnapshot, loadIndexSnapshot } from '../../src/knowledge/retrieval/index-snapshot.js';
import { type IndexableRecord, KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';
import { StringColumn } from '../../src/knowledge/retrieval/string-column.js';
import { recordColumns } from './record-columns.js';

const runsOf = (column: StringColumn) => (column as unknown as { runs: string[] }).runs;

describe('a string column', () => {
  it('reads slots placed in runs, set one by one, or holding none', () => {
    const column = StringColumn.ofRuns(5);
    const run = column.addRun('alphabetagamma');
    column.place(0, run, 0, 5);
    column.place(1, run, 5, 9);
    column.set(2, 'own');
    column.placeNull(3);
    column.place(4, column.addRun('xyz'), 1, 3);
    expect([0, 1, 2, 3, 4].map((s) => column.at(s))).toEqual(['alpha', 'beta', 'own', '', 'yz']);
    expect([0, 1, 2, 3, 4].map((s) => column.atOrNull(s))).toEqual(['alpha', 'beta', 'own', null, 'yz']);
    expect([0, 1, 2, 3, 4].map((s) => column.lengthAt(s))).toEqual([5, 4, 3, 0, 2]);
    expect(column.hasNull(5)).toBe(true);
    expect(column.hasNull(3)).toBe(false);
    column.set(5, 'appended');
    expect(column.length).toBe(6);
    expect(column.at(5)).toBe('appended');
  });

  it('moves slots down and lets go of the runs no kept slot reads', () => {
    const column = StringColumn.ofRuns(4);
    const first = column.addRun('aaaabbbb');
    const second = column.addRun('ccccdddd');
    column.place(0, first, 0, 4);
    column.place(1, first, 4, 8);
    column.place(2, second, 0, 4);
    column.place(3, second, 4, 8);
    // Slots 0 and 1 removed (set to ''), the others moved down, as a renumbering does.
    column.set(0, '');
    column.set(1, '');
    column.move(2, 0);
    column.move(3, 1);
    column.truncate(2);
    expect([column.at(0), column.at(1)]).toEqual(['cccc', 'dddd']);
    expect(runsOf(column)).toEqual(['', 'ccccdddd']);
    column.set(0, 'replaced');
    column.set(1, 'too');
    column.truncate(2);
    expect(runsOf(column)).toEqual(['', '']);
    expect([column.at(0), column.at(1)]).toEqual(['replaced', 'too']);
  });
});

// ~2.5 MB of ASCII texts (runs past 1 MB: read as external Latin-1 strings) and a chunk's worth of
// non-ASCII ones (read as UTF-8), so that both kinds of run are loaded.
function largeRecords(): IndexableRecord[] {
  return Array.from({ length: 9000 }, (_, i) => {
    const ascii = i < 8192;
    const word = ascii ? `refund${i % 97} order${i % 13}` : `café${i % 7} Größe 退货 😀`;
    return {
      recordId: `rec-${i}`,
      title: i % 4 === 0 ? null : `Question ${i} ${ascii ? 'about delivery' : 'über Lieferung'}?`,
      text: `${word} answer ${i} `.repeat(8 + (i % 9)),
      sourceName: i % 2 ? 'faq.json' : 'guide.md',
      ...(i % 3 ? { kind: 'qa' } : {}),
    };
  });
}

function observe(index: KnowledgeIndex, ids: readonly string[]) {
  return {
    size: index.size,
    records: ids.map((id) => index.get(id) ?? null),
    hits: ['refund5 order3', 'café3 größe', 'answer 8191', 'delivery question 12', '退货'].map((q) => index.search(q, 15)),
  };
}

describe('an index loaded from a large snapshot', () => {
  const records = largeRecords();
  const bytes = encodeIndexSnapshot(KnowledgeIndex.build(records).toCompact(), recordColumns(records));
  const ids = records.map((r) => r.recordId);

  it('holds every record as stored and ranks as the index it was made of', async () => {
    const loaded = await loadIndexSnapshot(bytes, () => Promise.resolve());
    const built = KnowledgeIndex.build(records);
    expect(observe(loaded, ids)).toEqual(observe(built, ids));
  });

  // Seven runs, each loading the 9,000-record snapshot and building the same index afresh (a few seconds
  // alone): 120 s leaves room for a busy machine.
  it('stays the same as a built index through removals, replacements, additions and renumberings (property)', { timeout: 120_000 }, async () => {
    const op = fc.oneof(
      fc.record({ remove: fc.array(fc.integer({ min: 0, max: records.length - 1 }), { minLength: 1, maxLength: 3000 }) }),
      fc.record({ replace: fc.integer({ min: 0, max: records.length - 1 }), text: fc.constantFrom('new refund text', 'neue Größe café', 'order refund order') }),
      fc.record({ add: fc.integer({ min: 1, max: 50 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 5 }), async (ops) => {
        const loaded = await loadIndexSnapshot(bytes, () => Promise.resolve());
        const built = KnowledgeIndex.build(records);
        const known = new Set(ids);
        let added = 0;
        for (const o of ops) {
          for (const index of [loaded, built]) {
            if ('remove' in o) index.remove(o.remove.map((i) => `rec-${i}`));
            else if ('replace' in o) index.add([{ recordId: `rec-${o.replace}`, title: null, text: o.text, sourceName: 'paste' }]);
            else index.add(Array.from({ length: o.add }, (_, k) => ({ recordId: `new-${added + k}`, title: `New ${added + k}`, text: `refund order answer ${added + k}`, sourceName: 'paste' })));
          }
          if ('add' in o) {
            for (let k = 0; k < o.add; k++) known.add(`new-${added + k}`);
            added += o.add;
          }
        }
        expect(observe(loaded, [...known])).toEqual(observe(built, [...known]));
      }),
      // The first example removes a third of the records: the slots are renumbered (compaction).
      { numRuns: 6, examples: [[[{ remove: Array.from({ length: 3000 }, (_, i) => i * 2) }, { add: 10 }, { replace: 1, text: 'order refund order' }]]] },
    );
  });
});
