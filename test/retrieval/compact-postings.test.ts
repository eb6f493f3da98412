/**
 * The postings' widths (issue 14, memory per knowledge base; compact-index.ts): 16-bit slots and
 * offsets and 8-bit frequencies where the values fit, wider arrays only where they do not, with
 * exactly the same ranking either way; the stored form (format 3) keeps the widths, and a
 * snapshot of the format before (32-bit postings) is refused, never misread.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompactIndex } from '../../src/knowledge/retrieval/compact-index.js';
import { decodeIndexSnapshot, encodeIndexSnapshot, loadIndexSnapshot, SNAPSHOT_FORMAT, unpackIndexSnapshot } from '../../src/knowledge/retrieval/index-snapshot.js';
import { type IndexableRecord, KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';
import { recordColumns } from './record-columns.js';

const WORDS = ['refund', 'refunds', 'shipping', 'order', 'orders', 'price', 'days', 'return', 'warranty', 'delivery', 'card', 'payment', 'hours', 'the', 'café'];
const QUERIES = ['refund order', 'shipping days', 'the', 'warranty card payment', 'refundd', 'delivery hours price', 'cafe'];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((w) => w.join(' '));
const records = fc
  .array(fc.record({ recordId: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), title: fc.option(text, { nil: null }), text, sourceName: fc.constant('s') }), { maxLength: 10 })
  .map((list) => [...new Map(list.map((r) => [r.recordId, r])).values()]);

function observe(index: KnowledgeIndex) {
  return { size: index.size, hits: QUERIES.map((q) => index.search(q, 50)), df: WORDS.map((w) => index.docFreq(w)) };
}

const columns = recordColumns;

/** The compact form with every postings array 32-bit (as format 2 kept them). */
function widened(compact: CompactIndex): CompactIndex {
  return { ...compact, start: Int32Array.from(compact.start), slot: Int32Array.from(compact.slot), titleTf: Int32Array.from(compact.titleTf), textTf: Int32Array.from(compact.textTf) };
}

describe('compact postings', () => {
  it('are 16-bit slots and offsets and 8-bit frequencies in a small index', () => {
    const compact = KnowledgeIndex.build([{ recordId: 'a', title: 'refund', text: 'refund order days', sourceName: 's' }], { language: 'en' }).toCompact();
    expect(compact.slot).toBeInstanceOf(Uint16Array);
    expect(compact.start).toBeInstanceOf(Uint16Array);
    expect(compact.titleTf).toBeInstanceOf(Uint8Array);
    expect(compact.textTf).toBeInstanceOf(Uint8Array);
  });

  it('widen the frequencies only when one does not fit, and rank as 32-bit postings do', () => {
    const list = [
      { recordId: 'a', title: 'order', text: `${'refund '.repeat(300)}days`, sourceName: 's' },
      { recordId: 'b', title: null, text: 'refund order shipping', sourceName: 's' },
    ];
    const index = KnowledgeIndex.build(list, { language: 'en' });
    const compact = index.toCompact();
    expect(compact.textTf).toBeInstanceOf(Uint16Array);
    expect(compact.titleTf).toBeInstanceOf(Uint16Array);
    expect(Math.max(...compact.textTf)).toBe(300);
    expect(observe(KnowledgeIndex.fromCompact(widened(compact), list))).toEqual(observe(index));
  });

  it('rank exactly as 32-bit postings, whatever the records and the changes after (property)', () => {
    fc.assert(
      fc.property(records, records, (list, more) => {
        const narrow = KnowledgeIndex.build(list, { language: 'en' });
        const wide = KnowledgeIndex.fromCompact(widened(KnowledgeIndex.build(list, { language: 'en' }).toCompact()), list);
        expect(observe(wide)).toEqual(observe(narrow));
        // Changed and compacted again (the widths chosen afresh), they still agree.
        for (const index of [narrow, wide]) {
          index.remove(['a', 'c']);
          index.add(more);
          index.compact(true);
        }
        expect(observe(wide)).toEqual(observe(narrow));
      }),
      { numRuns: 150 },
    );
  });

  it('are 32-bit slots past 65,536 records, ranking as a snapshot and a compact copy of the index do', async () => {
    const list: IndexableRecord[] = Array.from({ length: 65_540 }, (_, i) => ({ recordId: `r${i}`, title: null, text: `${WORDS[i % WORDS.length] as string} item${i % 1000}`, sourceName: 's' }));
    // The last records hold a word of their own: its postings name slots past 65,535.
    list[65_539] = { recordId: 'last', title: 'kettle', text: 'kettle warranty', sourceName: 's' };
    const index = KnowledgeIndex.build(list, { language: 'en' });
    const compact = index.toCompact();
    expect(compact.slot).toBeInstanceOf(Int32Array);
    expect(compact.start).toBeInstanceOf(Int32Array);
    expect(index.search('kettle', 3)).toEqual([{ recordId: 'last', score: expect.any(Number) as number }]);
    const loaded = await loadIndexSnapshot(encodeIndexSnapshot(compact, columns(list)), () => Promise.resolve());
    const queries = ['kettle', 'refund item7', 'warranty days'];
    for (const q of queries) expect(loaded.search(q, 10)).toEqual(index.search(q, 10));
    for (const q of queries) expect(KnowledgeIndex.fromCompact(compact, list).search(q, 10)).toEqual(index.search(q, 10));
  }, 60_000);

  it('keep their widths in the stored form, as views of it (no wider copies)', async () => {
    const list = [
      { recordId: 'a', title: 'refund', text: 'refund order days', sourceName: 's' },
      { recordId: 'b', title: null, text: 'shipping price card', sourceName: 's' },
    ];
    const { compact } = await decodeIndexSnapshot(encodeIndexSnapshot(KnowledgeIndex.build(list, { language: 'en' }).toCompact(), columns(list)));
    expect(compact.slot).toBeInstanceOf(Uint16Array);
    expect(compact.titleTf).toBeInstanceOf(Uint8Array);
    expect(compact.textTf).toBeInstanceOf(Uint8Array);
    expect(compact.titleTf.buffer).toBe(compact.slot.buffer);
    expect(compact.textTf.buffer).toBe(compact.df.buffer);
  });

  it('are refused in a snapshot of format 2 (32-bit postings), which would be misread', () => {
    expect(SNAPSHOT_FORMAT).toBe(11);
    const list = [{ recordId: 'a', title: 'refund', text: 'refund order days', sourceName: 's' }];
    const bytes = encodeIndexSnapshot(KnowledgeIndex.build(list, { language: 'en' }).toCompact(), columns(list));
    const formatTwo = new Uint8Array(bytes);
    new DataView(formatTwo.buffer).setUint32(4, 2, true);
    expect(() => unpackIndexSnapshot(formatTwo)).toThrow(/another format/);
    expect(() => unpackIndexSnapshot(bytes)).not.toThrow();
  });
});
