/**
 * Incremental indexing (issue 14): an index changed record by record — adds, removals,
 * replacements, compactions in between — answers exactly as one built from scratch from the
 * records it holds: the same hits and scores, statistics and vocabulary look-ups. And the compact
 * form that crosses threads rebuilds the same index.
 */
import fc from 'fast-check';
import { answerTypeTerm } from '../../src/knowledge/language/answer-types.js';
import { describe, expect, it } from 'vitest';
import { decodeIndexSnapshot, encodeIndexSnapshot, indexFromSnapshot, loadIndexSnapshot, SNAPSHOT_FORMAT, unpackIndexSnapshot } from '../../src/knowledge/retrieval/index-snapshot.js';
import { type IndexableRecord, KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';
import { SurfaceWords } from '../../src/knowledge/retrieval/surface-words.js';

const WORDS = ['refund', 'refunds', 'refunded', 'shipping', 'shipped', 'order', 'orders', 'café', 'cafe', 'the', 'price', '42', '退货', 'days', 'return', 'warranty', 'warranti', 'delivery', 'deliveries', 'mastercard', 'card', 'payment', 'pay', 'opening', 'hours', 'hello@shop.example', '0114 496 0321', '9am', '04229 Leipzig'];
const word = fc.constantFrom(...WORDS);
const text = fc.array(word, { minLength: 0, maxLength: 10 }).map((w) => w.join(' '));
const record = fc.record({ recordId: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'), title: fc.option(text, { nil: null }), text, sourceName: fc.constant('s') });
const op = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), records: fc.array(record, { maxLength: 4 }) }),
  fc.record({ kind: fc.constant('remove' as const), ids: fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'zz'), { maxLength: 4 }) }),
  fc.record({ kind: fc.constant('compact' as const) }),
);
const QUERIES = ['refund order', 'shipping days 42', 'the', 'cafe price', 'refundd warrantee', 'deliverys', 'card', 'payments opening hours', '退货', "what's your phone number", 'email address', 'when are you open', "what's your address"];

/** Everything a search or the answerer reads of an index, in comparable form. */
function observe(index: KnowledgeIndex) {
  return {
    size: index.size,
    language: index.language,
    hits: QUERIES.map((q) => index.search(q, 50)),
    expanded: QUERIES.map((q) => index.expand(q)),
    docFreq: [...WORDS, ...(['phone', 'email', 'hours', 'address'] as const).map(answerTypeTerm)].map((w) => [index.docFreq(w), index.idf(w), index.termOfSurface(w)]),
    prefixes: ['re', 'ship', 'de', 'pay', 'x'].map((p) => index.surfacesWithPrefix(p, 64)),
    suffixes: ['card', 'und', 's'].map((s) => index.termsWithSuffix(s, 16)),
    surfaceSuffixes: ['card', 'ing', 's'].map((s) => index.surfacesWithSuffix(s, 16)),
    edits: ['refunt', 'shiping', 'warrant', 'delivry', 'payement'].map((w) => index.surfacesWithinOneEdit(w)),
    records: ['a', 'b', 'c', 'j'].map((id) => [index.has(id), index.get(id)]),
  };
}

/** Applies the operations to an index and to a plain list (the records a fresh build would get, in order). */
type Op = { kind: 'add'; records: IndexableRecord[] } | { kind: 'remove'; ids: string[] } | { kind: 'compact' };

function replay(index: KnowledgeIndex, ops: readonly Op[]): IndexableRecord[] {
  let held: IndexableRecord[] = [];
  for (const o of ops) {
    if (o.kind === 'add') {
      index.add(o.records);
      for (const r of o.records) held = [...held.filter((h) => h.recordId !== r.recordId), r];
    } else if (o.kind === 'remove') {
      index.remove(o.ids);
      held = held.filter((h) => !o.ids.includes(h.recordId));
    } else index.compact();
  }
  return held;
}

describe('incremental indexing', () => {
  it('gives exactly what a fresh build of the same records gives, after any sequence of adds, removals and compactions (property)', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 8 }), fc.array(op, { maxLength: 12 }), (start, ops) => {
        const index = KnowledgeIndex.build(start, { language: 'en' });
        replay(index, ops);
        // The records the index should hold now, in its order (an id added again moves to the end).
        const held = replay(KnowledgeIndex.build([], { language: 'en' }), [{ kind: 'add', records: start }, ...ops]);
        const fresh = KnowledgeIndex.build(held, { language: 'en' });
        expect(observe(index)).toEqual(observe(fresh));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps exact statistics through many changes that cross the compaction thresholds', () => {
    const next = (() => {
      let a = 7;
      return () => ((a = (a * 1103515245 + 12345) >>> 0) / 2 ** 32);
    })();
    const make = (i: number): IndexableRecord => ({
      recordId: `r${i}`,
      title: next() < 0.5 ? null : `${WORDS[Math.floor(next() * WORDS.length)]} question ${i % 50}`,
      text: Array.from({ length: 12 }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ') + ` item${i % 300}`,
      sourceName: `source ${i % 3}`,
      kind: i % 2 ? 'qa' : 'passage',
    });
    const index = KnowledgeIndex.build([], { language: 'en' });
    let held: IndexableRecord[] = [];
    for (let round = 0; round < 60; round++) {
      const added = Array.from({ length: 40 }, (_, j) => make(round * 40 + j));
      index.add(added);
      held.push(...added);
      const gone = held.filter(() => next() < 0.3).map((r) => r.recordId);
      index.remove(gone);
      held = held.filter((r) => !gone.includes(r.recordId));
    }
    expect(observe(index)).toEqual(observe(KnowledgeIndex.build(held, { language: 'en' })));
    expect(index.get(held[0]?.recordId as string)).toEqual(held[0]);
  });

  it('rebuilds the same index from its compact form (the form built on a worker thread)', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 10 }), (recs) => {
        const unique = [...new Map(recs.map((r) => [r.recordId, r])).values()];
        const built = KnowledgeIndex.build(unique);
        const copy = KnowledgeIndex.fromCompact(structuredClone(KnowledgeIndex.build(unique).toCompact()), unique);
        expect(observe(copy)).toEqual(observe(built));
        // …and it goes on changing like any other.
        copy.remove(['a']);
        built.remove(['a']);
        copy.add([{ recordId: 'k', title: 'refund', text: 'shipping days', sourceName: 's' }]);
        built.add([{ recordId: 'k', title: 'refund', text: 'shipping days', sourceName: 's' }]);
        expect(observe(copy)).toEqual(observe(built));
      }),
      { numRuns: 100 },
    );
  });

  it('makes the same index in steps as at once, whatever the step (the stepped load of a snapshot), spelling neighbours and word order included (property)', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 12 }), fc.integer({ min: 1, max: 5 }), (recs, perStep) => {
        const unique = [...new Map(recs.map((r) => [r.recordId, r])).values()];
        const compact = KnowledgeIndex.build(unique).toCompact();
        const atOnce = KnowledgeIndex.fromCompact(structuredClone(compact), unique);
        const steps = KnowledgeIndex.fromCompactInSteps(structuredClone(compact), unique, perStep);
        let step = steps.next();
        let yields = 0;
        for (; !step.done; step = steps.next()) yields++;
        const stepped = step.value;
        // It did stop between steps (terms, records and surface words, `perStep` at a time).
        expect(yields).toBeGreaterThanOrEqual(Math.floor(compact.surfaces.words.length / perStep));
        expect(observe(stepped)).toEqual(observe(atOnce));
        expect(stepped.toCompact().surfaces).toEqual(atOnce.toCompact().surfaces);
        // …and goes on changing like any other.
        for (const index of [stepped, atOnce]) {
          index.remove(['a']);
          index.add([{ recordId: 'k', title: 'refund', text: 'shipping days warranty', sourceName: 's' }]);
        }
        expect(observe(stepped)).toEqual(observe(atOnce));
      }),
      { numRuns: 100 },
    );
  });

  it('restores the surface words in steps exactly as at once', () => {
    const index = KnowledgeIndex.build([
      { recordId: 'a', title: 'Refunds and returns', text: 'Refunds reach your card within five working days of the return.', sourceName: 's' },
      { recordId: 'b', title: null, text: 'Shipping is free above fifty euros; returns are free too, refunded quickly.', sourceName: 's' },
    ]);
    const { surfaces } = index.toCompact();
    // The index's terms by id, as the index gives them to its surface words.
    const { terms } = index.toCompact();
    const vocabulary = () => new SurfaceWords({ get: (term) => (terms.includes(term) ? terms.indexOf(term) : undefined) }, { at: (t) => terms[t] as string });
    const atOnce = vocabulary();
    atOnce.restore(surfaces);
    const stepped = vocabulary();
    let yields = 0;
    for (const steps = stepped.restoreInSteps(surfaces, 1); !steps.next().done; ) yields++;
    expect(yields).toBe(surfaces.words.length);
    expect(stepped.snapshot()).toEqual(atOnce.snapshot());
    expect(stepped.words()).toEqual(surfaces.words);
    for (const word of surfaces.words) expect(stepped.termOf(word)).toBe(atOnce.termOf(word));
    expect(stepped.approximateBytes()).toBe(atOnce.approximateBytes());
  });

  it('loads the same index from its stored form (snapshot), which then changes like any other (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 10 }), fc.array(op, { maxLength: 8 }), async (recs, ops) => {
        const unique = [...new Map(recs.map((r) => [r.recordId, { ...r, kind: r.recordId < 'e' ? 'qa' : undefined }])).values()];
        const built = KnowledgeIndex.build(unique);
        const columns = { ids: unique.map((r) => r.recordId), titles: unique.map((r) => r.title), texts: unique.map((r) => r.text), sources: unique.map((r) => r.sourceName), kinds: unique.map((r) => r.kind) };
        const bytes = encodeIndexSnapshot(KnowledgeIndex.build(unique).toCompact(), columns);
        const loaded = await indexFromSnapshot(unpackIndexSnapshot(bytes), () => Promise.resolve());
        expect(observe(loaded)).toEqual(observe(built));
        expect(observe(await loadIndexSnapshot(bytes, () => Promise.resolve()))).toEqual(observe(built));
        const decoded = await decodeIndexSnapshot(bytes);
        expect(observe(KnowledgeIndex.fromCompact(decoded.compact, unique))).toEqual(observe(built));
        // Brought forward by changes, it ranks as a fresh build of the records it then holds.
        replay(loaded, ops);
        const held = replay(KnowledgeIndex.build([], { language: built.language }), [{ kind: 'add', records: unique }, ...ops]);
        expect(observe(loaded)).toEqual(observe(KnowledgeIndex.build(held, { language: built.language })));
      }),
      { numRuns: 100 },
    );
  });

  it('refuses a stored form that is damaged, of another format, or says other than this code analyses', async () => {
    const records = ['refund order days', 'shipping price', 'warranty card payment'].map((text, i) => ({ recordId: `r${i}`, title: i ? null : 'refund', text, sourceName: 's' }));
    const columns = { ids: records.map((r) => r.recordId), titles: records.map((r) => r.title), texts: records.map((r) => r.text), sources: records.map((r) => r.sourceName), kinds: records.map(() => undefined) };
    const compact = KnowledgeIndex.build(records, { language: 'en' }).toCompact();
    const bytes = encodeIndexSnapshot(compact, columns);
    await expect(loadIndexSnapshot(bytes)).resolves.toBeInstanceOf(KnowledgeIndex);
    expect(() => unpackIndexSnapshot(bytes.subarray(0, bytes.length - 5))).toThrow();
    await expect(loadIndexSnapshot(bytes.subarray(0, bytes.length - 5))).rejects.toThrow();
    expect(() => unpackIndexSnapshot(new Uint8Array([1, 2, 3, 4, 5]))).toThrow();
    // A format-1 snapshot (its magic, then its deflated layout) is refused, not misread.
    const formatOne = new Uint8Array(bytes.length);
    formatOne.set(bytes);
    new DataView(formatOne.buffer).setUint32(0, 0x58495747, true);
    expect(() => unpackIndexSnapshot(formatOne)).toThrow(/format/);
    // Another format number behind this format's magic too.
    const later = new Uint8Array(bytes);
    new DataView(later.buffer).setUint32(4, SNAPSHOT_FORMAT + 1, true);
    expect(() => unpackIndexSnapshot(later)).toThrow(/another format/);
    // As if another analysis had counted one more word in a record.
    const other = { ...compact, textLen: compact.textLen.map((n, i) => (i === 0 ? n + 1 : n)) };
    await expect(loadIndexSnapshot(encodeIndexSnapshot(other, columns))).rejects.toThrow(/another analysis/);
    // …or one occurrence more of a word.
    const more = { ...compact, textTf: compact.textTf.map((n, i) => (i === 0 ? n + 1 : n)) };
    await expect(loadIndexSnapshot(encodeIndexSnapshot(more, columns))).rejects.toThrow(/another analysis/);
  });

  it('counts a record’s phone number and email address as terms, which leave with the record and do not change other rankings', () => {
    const records: IndexableRecord[] = [
      { recordId: 'contact', title: 'Contact', text: 'Write to hello@shop.example or call 0114 496 0321.', sourceName: 's' },
      { recordId: 'returns', title: 'Returns', text: 'Write your order number on the parcel.', sourceName: 's' },
    ];
    const index = KnowledgeIndex.build(records, { language: 'en' });
    expect(index.docFreq(answerTypeTerm('phone'))).toBe(1);
    expect(index.docFreq(answerTypeTerm('email'))).toBe(1);
    expect(index.search("what's your email address", 1)[0]?.recordId).toBe('contact');
    // The text's length is its words': a question that asks for no contact detail scores both as before.
    const plain = KnowledgeIndex.build(records.map((r) => ({ ...r, text: r.text.replace(/ hello@\S+ or call [\d ]+\./, ' us.') })), { language: 'en' });
    expect(index.search('write order', 2).map((h) => h.recordId)).toEqual(plain.search('write order', 2).map((h) => h.recordId));
    index.remove(['contact']);
    expect(index.docFreq(answerTypeTerm('phone'))).toBe(0);
    expect(index.docFreq(answerTypeTerm('email'))).toBe(0);
  });

  it('says when the records it detects its language from changed language', () => {
    // The language is detected from the first records (about 600 characters of them).
    const en = 'Our shop sends every order within two working days and refunds returned items quickly. ';
    const de = 'Unser Geschäft verschickt jede Bestellung innerhalb von zwei Werktagen und erstattet Rücksendungen schnell. ';
    const english = ['e1', 'e2', 'e3'].map((recordId) => ({ recordId, title: null, text: en.repeat(3), sourceName: 's' }));
    const german = { recordId: 'de', title: null, text: de.repeat(3), sourceName: 's' };
    const index = KnowledgeIndex.build(english);
    expect(index.language).toBe('en');
    index.add([german]);
    expect(index.languageHolds()).toBe(true);
    expect(KnowledgeIndex.build([...english, german]).language).toBe('en');
    index.remove(['e1', 'e2', 'e3']);
    expect(index.languageHolds()).toBe(false);
    expect(KnowledgeIndex.build([german]).language).toBe('de');
  });
});
