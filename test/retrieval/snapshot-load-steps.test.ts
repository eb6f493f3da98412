/**
 * A snapshot's load in short steps (issue 14, head of line; docs/indexing.md "Session 11"): its
 * parts inflated a few hundred KB per trip through libuv's pool into one buffer of the known
 * length, the records' strings sliced from runs decoded at once (their UTF-16 lengths worked out
 * from the UTF-8 bytes outside ASCII), and the records made one at a time as the index keeps
 * them. The loaded index must hold exactly the records, and rank exactly as the one it was made of.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeIndexSnapshot, encodeIndexSnapshot, loadIndexSnapshot, unpackIndexSnapshotAsync } from '../../src/knowledge/retrieval/index-snapshot.js';
import { type IndexableRecord, KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';
import { recordColumns } from './record-columns.js';

const columns = recordColumns;

// ASCII, Latin-1, other BMP letters and astral ones (a surrogate pair from a 4-byte sequence).
const PIECES = ['refund', 'order', 'café', 'Größe', 'ßü', '退货', 'доставка', '𝒳ray', '😀', 'ok', 'a'];
const piece = fc.constantFrom(...PIECES);
const words = (max: number) => fc.array(piece, { minLength: 1, maxLength: max }).map((w) => w.join(' '));

function observe(index: KnowledgeIndex, ids: readonly string[]) {
  return {
    size: index.size,
    records: ids.map((id) => index.get(id)),
    hits: ['refund order', 'café größe', '退货', 'доставка', 'xray', 'ok a'].map((q) => index.search(q, 20)),
  };
}

describe('a snapshot loaded in steps', () => {
  it('holds every record string as it was, whatever its characters, and ranks as the index it was made of (property)', async () => {
    const record = fc.record({ title: fc.option(words(4), { nil: null }), text: words(30), kind: fc.option(fc.constantFrom('qa', 'passage'), { nil: undefined }) });
    await fc.assert(
      fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 40 }), async (list) => {
        const records: IndexableRecord[] = list.map((r, i) => ({ recordId: `r${i}-${PIECES[i % PIECES.length]}`, sourceName: i % 3 === 0 ? 'faq.json' : 'Übersicht.pdf', title: r.title, text: r.text, ...(r.kind ? { kind: r.kind } : {}) }));
        const built = KnowledgeIndex.build(records);
        const bytes = encodeIndexSnapshot(built.toCompact(), columns(records));
        const ids = records.map((r) => r.recordId);
        expect(observe(await loadIndexSnapshot(bytes, () => Promise.resolve()), ids)).toEqual(observe(built, ids));
        const decoded = await decodeIndexSnapshot(bytes);
        expect(decoded.records.texts).toEqual(records.map((r) => r.text));
        expect(decoded.records.titles).toEqual(records.map((r) => r.title));
        expect(decoded.records.ids).toEqual(ids);
      }),
      { numRuns: 150 },
    );
  });

  it('loads a snapshot whose parts and string runs take many steps (several hundred KB each)', async () => {
    // ~1.5 MB of texts: many inflation steps and several runs of the records' strings, non-ASCII among them.
    const records: IndexableRecord[] = Array.from({ length: 3000 }, (_, i) => ({
      recordId: `record-${i}`,
      title: i % 5 === 0 ? null : `Question ${i} about the café ${i % 7}`,
      text: `${PIECES[i % PIECES.length]} answer ${i} `.repeat(1 + (i % 40)) + (i % 11 === 0 ? '😀 退货' : 'plain'),
      sourceName: 'faq.json',
    }));
    const built = KnowledgeIndex.build(records);
    const bytes = encodeIndexSnapshot(built.toCompact(), columns(records));
    const loaded = await loadIndexSnapshot(bytes, () => Promise.resolve());
    const ids = records.map((r) => r.recordId);
    expect(observe(loaded, ids)).toEqual(observe(built, ids));
    expect(ids.map((id) => loaded.get(id)?.text)).toEqual(records.map((r) => r.text));
  });

  it('refuses a part that inflates to more or fewer bytes than its header says', async () => {
    const records: IndexableRecord[] = Array.from({ length: 400 }, (_, i) => ({ recordId: `r${i}`, title: null, text: `refund order ${i} `.repeat(20), sourceName: 's' }));
    const bytes = encodeIndexSnapshot(KnowledgeIndex.build(records).toCompact(), columns(records));
    await expect(unpackIndexSnapshotAsync(bytes)).resolves.toBeDefined();
    for (const at of [12, 16]) {
      for (const delta of [-1, 1, 300_000]) {
        const wrong = bytes.slice();
        const view = new DataView(wrong.buffer);
        view.setUint32(at, view.getUint32(at, true) + delta, true);
        await expect(unpackIndexSnapshotAsync(wrong)).rejects.toThrow(/damaged/);
      }
    }
  });
});
