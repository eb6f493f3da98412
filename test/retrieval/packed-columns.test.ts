/**
 * A small index's numeric columns in one buffer, its frequencies as narrow as its slots allow
 * (issue 14, memory per idle knowledge base; docs/indexing.md, "Session 12"): the packed layout
 * answers exactly as the plain one (every column in its own buffer, Int32 frequencies) — the same
 * hits and scores bit for bit, the same look-ups and the same records back — when built, when
 * loaded from a snapshot, and after any changes made to both.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeIndexSnapshot, loadIndexSnapshot } from '../../src/knowledge/retrieval/index-snapshot.js';
import { type IndexableRecord, KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';
import { ColumnPacker, PACK_AT_MOST_BYTES, packColumnsSwitch } from '../../src/knowledge/retrieval/packed-columns.js';

const WORDS = ['refund', 'refunds', 'refunded', 'shipping', 'shipped', 'order', 'orders', 'café', 'cafe', 'the', 'price', '42', '退货', 'days', 'return', 'warranty', 'delivery', 'deliveries', 'mastercard', 'card', 'payment', 'opening', 'hours'];
const IDS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 10 }).map((w) => w.join(' '));
const record = fc.record({
  recordId: fc.constantFrom(...IDS),
  title: fc.option(text, { nil: null }),
  text,
  sourceName: fc.constantFrom('faq.json', 'manual.pdf'),
  kind: fc.option(fc.constantFrom('qa', 'passage'), { nil: undefined }),
});
const op = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), records: fc.array(record, { maxLength: 4 }) }),
  fc.record({ kind: fc.constant('remove' as const), ids: fc.array(fc.constantFrom(...IDS), { maxLength: 3 }) }),
  fc.record({ kind: fc.constant('compact' as const) }),
);
type Op = { kind: 'add'; records: IndexableRecord[] } | { kind: 'remove'; ids: string[] } | { kind: 'compact' };
const QUERIES = ['refund order', 'shipping days 42', 'the', 'cafe price', 'refundd warrantee', 'deliverys', 'card', 'payments opening hours', '退货'];

/** Everything a search or the answerer reads of an index, in comparable form (scores compared exactly). */
function observe(index: KnowledgeIndex) {
  return {
    size: index.size,
    hits: QUERIES.map((q) => index.search(q, 50)),
    expanded: QUERIES.map((q) => index.expand(q)),
    docFreq: WORDS.map((w) => [index.docFreq(w), index.termOfSurface(w)]),
    prefixes: ['re', 'ship', 'de', 'x'].map((p) => index.surfacesWithPrefix(p, 64)),
    suffixes: ['card', 'und', 's'].map((s) => index.termsWithSuffix(s, 16)),
    edits: ['refunt', 'shiping', 'delivry'].map((w) => index.surfacesWithinOneEdit(w)),
    records: IDS.map((id) => index.get(id) ?? null),
    compact: index.toCompact(),
  };
}

function apply(index: KnowledgeIndex, ops: readonly Op[]): void {
  for (const o of ops) {
    if (o.kind === 'add') index.add(o.records);
    else if (o.kind === 'remove') index.remove(o.ids);
    else index.compact();
  }
}

const unique = (records: readonly IndexableRecord[]) => [...new Map(records.map((r) => [r.recordId, r])).values()];

function snapshotOf(records: readonly IndexableRecord[]): Uint8Array {
  const compact = KnowledgeIndex.build(records, { language: 'en' }).toCompact();
  return encodeIndexSnapshot(compact, { ids: records.map((r) => r.recordId), titles: records.map((r) => r.title), texts: records.map((r) => r.text), sources: records.map((r) => r.sourceName), kinds: records.map((r) => r.kind) });
}

/** The typed arrays an index holds (its own and its parts'), found by walking its fields. */
function typedArraysOf(root: object): ArrayBufferView[] {
  const found: ArrayBufferView[] = [];
  const seen = new Set<unknown>();
  const walk = (value: unknown, depth: number) => {
    if (value === null || typeof value !== 'object' || seen.has(value) || depth > 4) return;
    seen.add(value);
    if (ArrayBuffer.isView(value)) found.push(value);
    else if (Array.isArray(value)) for (const item of value) walk(item, depth + 1);
    else if (!(value instanceof Map)) for (const item of Object.values(value)) walk(item, depth + 1);
  };
  walk(root, 0);
  return found;
}

const plainly = <T>(make: () => T): T => {
  packColumnsSwitch.enabled = false;
  try {
    return make();
  } finally {
    packColumnsSwitch.enabled = true;
  }
};

afterEach(() => {
  packColumnsSwitch.enabled = true;
});

describe('ColumnPacker', () => {
  it('puts columns of every width in one buffer, each aligned and with its contents', () => {
    const columns = { a: Uint8Array.of(1, 2, 3), b: Int32Array.of(-1, 70_000), c: Uint16Array.of(65_535), d: Int16Array.of(-5, 7), e: new Uint8Array(0) };
    const packer = new ColumnPacker();
    const out: Partial<Record<keyof typeof columns, ArrayBufferView>> = {};
    for (const key of Object.keys(columns) as (keyof typeof columns)[]) packer.add(columns[key], (view) => (out[key] = view));
    expect(packer.pack()).toBe(true);
    expect([...(out.a as Uint8Array)]).toEqual([1, 2, 3]);
    expect([...(out.b as Int32Array)]).toEqual([-1, 70_000]);
    expect([...(out.c as Uint16Array)]).toEqual([65_535]);
    expect([...(out.d as Int16Array)]).toEqual([-5, 7]);
    expect(out.e).toBeUndefined();
    expect(new Set([out.a, out.b, out.c, out.d].map((v) => (v as ArrayBufferView).buffer)).size).toBe(1);
    for (const v of [out.b, out.c, out.d] as (Int32Array | Uint16Array | Int16Array)[]) expect(v.byteOffset % v.BYTES_PER_ELEMENT).toBe(0);
    expect(out.b).toBeInstanceOf(Int32Array);
    expect(out.d).toBeInstanceOf(Int16Array);
  });

  it('leaves columns larger than the limit together in their own buffers', () => {
    const big = new Int32Array(PACK_AT_MOST_BYTES / 4 + 1);
    const packer = new ColumnPacker();
    let put = false;
    packer.add(big, () => (put = true));
    expect(packer.pack()).toBe(false);
    expect(put).toBe(false);
  });
});

describe('an index with packed columns', () => {
  it('answers as the plain layout when built and loaded, and after any changes to both (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 10 }), fc.array(op, { maxLength: 8 }), async (start, ops) => {
        const records = unique(start);
        const packed = KnowledgeIndex.build(records, { language: 'en' });
        const plain = plainly(() => KnowledgeIndex.build(records, { language: 'en' }));
        const bytes = snapshotOf(records);
        const loaded = await loadIndexSnapshot(bytes, () => Promise.resolve());
        packColumnsSwitch.enabled = false;
        const loadedPlain = await loadIndexSnapshot(bytes, () => Promise.resolve()).finally(() => (packColumnsSwitch.enabled = true));
        const reference = observe(plain);
        for (const index of [packed, loaded, loadedPlain]) expect(observe(index)).toEqual(reference);
        for (const index of [packed, plain, loaded, loadedPlain]) apply(index, ops);
        const changed = observe(plain);
        for (const index of [packed, loaded, loadedPlain]) expect(observe(index)).toEqual(changed);
      }),
      { numRuns: 150 },
    );
  });

  it('holds a small index loaded from its snapshot in one buffer, its frequencies a byte each', async () => {
    const records = Array.from({ length: 25 }, (_, i) => ({ recordId: `r${i}`, title: `${WORDS[i % WORDS.length]} question ${i}?`, text: `${WORDS[i % WORDS.length]} question ${i}? ${WORDS.join(' ')} item${i}`, sourceName: 'faq.json', kind: 'qa' }));
    const loaded = await loadIndexSnapshot(snapshotOf(records), () => Promise.resolve());
    loaded.releaseCaches();
    const arrays = typedArraysOf(loaded);
    expect(arrays.length).toBeGreaterThan(8);
    expect(new Set(arrays.map((a) => a.buffer)).size).toBe(1);
    expect((loaded as unknown as { df: ArrayBufferView }).df).toBeInstanceOf(Uint8Array);
    // The plain layout: a buffer per column but the snapshot's sections.
    packColumnsSwitch.enabled = false;
    const plain = await loadIndexSnapshot(snapshotOf(records), () => Promise.resolve());
    packColumnsSwitch.enabled = true;
    plain.releaseCaches();
    expect(new Set(typedArraysOf(plain).map((a) => a.buffer)).size).toBeGreaterThan(5);
  });

  it('widens its frequencies before a count passes what they hold (a small index that grows past 255 and 65,535 records)', () => {
    const make = (i: number): IndexableRecord => ({ recordId: `r${i}`, title: null, text: `refund order ${i % 7 === 0 ? 'warranty' : 'card'}`, sourceName: 's' });
    const index = KnowledgeIndex.build(Array.from({ length: 25 }, (_, i) => make(i)), { language: 'en' });
    expect((index as unknown as { df: ArrayBufferView }).df).toBeInstanceOf(Uint8Array);
    const all = Array.from({ length: 66_000 }, (_, i) => make(i));
    for (let from = 25; from < all.length; from += 5000) index.add(all.slice(from, from + 5000));
    expect(index.docFreq('refund')).toBe(66_000);
    expect(index.docFreq('warranti')).toBe(Math.ceil(66_000 / 7));
    expect((index as unknown as { df: ArrayBufferView }).df).toBeInstanceOf(Int32Array);
    const fresh = KnowledgeIndex.build(all, { language: 'en' });
    for (const q of ['refund', 'warranty card', 'order 42']) expect(index.search(q, 10)).toEqual(fresh.search(q, 10));
  });
});
