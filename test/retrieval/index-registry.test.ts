/**
 * The in-memory retriever across changes (issue 14): uploads and deletions reach an index as
 * their own records, on the instance that made them and on another one sharing the database, and
 * the result ranks exactly as a fresh build; cold indexes build on a worker thread, one build per
 * knowledge base however many queries wait, and other knowledge bases' queries go on meanwhile;
 * the indexes held stay within their byte budget.
 */
import { randomUUID } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/adapters/storage/sqlite/dialect.js';
import type { SqlContext } from '../../src/adapters/storage/sql.js';
import { fingerprint } from '../../src/knowledge/fingerprint.js';
import type { KnowledgeBase } from '../../src/knowledge/model.js';
import { IndexBuildThreads } from '../../src/knowledge/query/index-build-threads.js';
import { type IndexEvent, IndexRegistry } from '../../src/knowledge/query/index-registry.js';
import { encodeIndexSnapshot } from '../../src/knowledge/retrieval/index-snapshot.js';
import { KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';

const WORDS = ['refund', 'refunds', 'shipping', 'order', 'orders', 'price', 'days', 'return', 'warranty', 'delivery', 'card', 'payment', 'hours', 'kettle', 'lamp'];
const QUERIES = ['refund order', 'shipping days', 'warranty card', 'delivery hours price', 'refundd', 'lamp kettle'];

let store: SqliteStore;
let owner: string;
const registries: IndexRegistry[] = [];
/** One pool for every registry here (as one process has). */
const threads = new IndexBuildThreads();
/** Every record reads as English, so the detected language never changes (which would rebuild). */
const ENGLISH = 'The team in the shop will answer all of your questions about it within the day, and we would be happy to help you with that.';

beforeAll(async () => {
  store = new SqliteStore(':memory:');
  await store.migrate();
  owner = (await store.accounts.accountForEmail(`${randomUUID()}@example.test`, `acc_${randomUUID()}`)).accountId;
});
afterAll(async () => {
  for (const r of registries) await r.close();
  await threads.close();
  await store.close();
});

function registry(events: IndexEvent[] = [], maxBytes?: number, snapshots = true): IndexRegistry {
  const r = new IndexRegistry(store.knowledge, { threads, snapshots, observer: (e) => events.push(e), ...(maxBytes === undefined ? {} : { maxBytes }) });
  registries.push(r);
  return r;
}

async function knowledgeBase(): Promise<KnowledgeBase> {
  const created = await store.knowledge.createKnowledgeBase({ ragId: `kb_${randomUUID()}`, ownerId: owner, botName: 'Bot', description: null, greeting: null, theme: {} }, 1_000_000);
  if (created.kind !== 'created') throw new Error('not created');
  return created.knowledgeBase;
}

async function upload(ragId: string, texts: string[]): Promise<{ kb: KnowledgeBase; sourceId: string; ids: string[] }> {
  const sourceId = `src_${randomUUID()}`;
  const candidates = texts.map((text, i) => ({ recordId: `rec_${randomUUID()}`, kind: 'passage' as const, title: i % 2 ? null : `about ${text.split(' ')[0]}`, text: `${text}. ${ENGLISH}`, fingerprint: fingerprint(`${randomUUID()} ${text}`) }));
  const result = await store.knowledge.commitSource(owner, ragId, { sourceId, sourceName: 'faq.txt', format: 'txt', byteSize: 1, sha256: 'a'.repeat(64), rejectedCount: 0 }, candidates, 1_000_000);
  if (result.kind !== 'committed') throw new Error(result.kind);
  return { kb: result.knowledgeBase, sourceId, ids: candidates.map((c) => c.recordId) };
}

async function fresh(ragId: string): Promise<KnowledgeBase> {
  const kb = await store.knowledge.findKnowledgeBase(ragId);
  if (!kb) throw new Error('gone');
  return kb;
}

/** What a query sees of the registry's index, against a fresh build of the stored records. */
async function expectFreshRanking(r: IndexRegistry, kb: KnowledgeBase): Promise<void> {
  const records = await store.knowledge.allRecords(kb.ragId);
  const rebuilt = KnowledgeIndex.build(records.map((x) => ({ recordId: x.recordId, title: x.title, text: x.text, sourceName: x.sourceName })));
  for (const q of QUERIES) {
    const { hits, stats } = await r.search(kb, q, 20);
    expect(hits.map((h) => [h.recordId, h.score])).toEqual(rebuilt.search(q, 20).map((h) => [h.recordId, h.score]));
    expect(stats.size).toBe(rebuilt.size);
    for (const w of WORDS) expect(stats.docFreq(w)).toBe(rebuilt.docFreq(w));
  }
}

/** A first query builds the index from the records (no usable snapshot) and writes a snapshot the next registry loads. */
async function expectBuiltThenSnapshotReplaced(kb: KnowledgeBase): Promise<void> {
  const events: IndexEvent[] = [];
  const r = registry(events);
  await expectFreshRanking(r, kb);
  expect(events.filter((e) => e.type === 'build-started')).toHaveLength(1);
  await r.settled();
  expect(events.filter((e) => e.type === 'snapshot-written')).toHaveLength(1);
  const again: IndexEvent[] = [];
  await expectFreshRanking(registry(again), kb);
  expect(again.map((e) => e.type)).toEqual(['snapshot-loaded']);
}

const sentence = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }).map((w) => w.join(' '));
const change = fc.oneof(
  fc.record({ kind: fc.constant('upload' as const), texts: fc.array(sentence, { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant('delete-source' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('delete-record' as const), pick: fc.nat() }),
);

describe('incremental updates of the in-memory retriever', () => {
  it('ranks exactly as a fresh build after random uploads and deletions, on the instance that made them and on another (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 8 }), async (changes) => {
        const local: IndexEvent[] = [];
        const remote: IndexEvent[] = [];
        // Without snapshots: the second instance's first index is built too, as the counts below expect.
        const here = registry(local, undefined, false);
        const there = registry(remote, undefined, false);
        let kb = (await upload((await knowledgeBase()).ragId, ['refund order days', 'shipping price'])).kb;
        await here.search(kb, 'refund', 5);
        await there.search(kb, 'refund', 5);
        const sources: string[] = [];
        const records: string[] = [];
        for (const c of [{ kind: 'upload' as const, texts: ['lamp kettle'] }, ...changes]) {
          if (c.kind === 'upload') {
            const done = await upload(kb.ragId, c.texts);
            sources.push(done.sourceId);
            records.push(...done.ids);
          } else if (c.kind === 'delete-source' && sources.length > 0) {
            await store.knowledge.deleteSource(owner, kb.ragId, sources.splice(c.pick % sources.length, 1)[0] as string);
          } else if (c.kind === 'delete-record' && records.length > 0) {
            await store.knowledge.deleteRecord(owner, kb.ragId, records.splice(c.pick % records.length, 1)[0] as string);
          }
          kb = await fresh(kb.ragId);
          // This instance is told (compose.ts wires uploads to `invalidate`); the other one only sees the new version.
          await here.invalidate(kb.ragId, kb.contentVersion);
          await expectFreshRanking(here, kb);
          await expectFreshRanking(there, kb);
        }
        // One build each, at the start: every change after it was applied record by record.
        expect(local.filter((e) => e.type === 'build-started')).toHaveLength(1);
        expect(remote.filter((e) => e.type === 'build-started')).toHaveLength(1);
        expect(remote.filter((e) => e.type === 'changes-applied').length).toBeGreaterThan(0);
        await here.close();
        await there.close();
      }),
      { numRuns: 10 },
    );
  }, 120_000);

  it('builds again from the records when the change history does not reach back to the version held', async () => {
    const events: IndexEvent[] = [];
    const r = registry(events);
    let { kb } = await upload((await knowledgeBase()).ragId, ['refund order days']);
    await r.search(kb, 'refund', 5);
    // More versions than the store keeps removals for.
    for (let i = 0; i < 260; i++) kb = (await upload(kb.ragId, [`lamp ${i}`])).kb;
    await expectFreshRanking(r, kb);
    expect(events.filter((e) => e.type === 'build-started')).toHaveLength(2);
  }, 60_000);
});

describe('cold indexes', () => {
  it('load from the snapshot the last full build wrote, brought forward by the changes since, ranking as a fresh build (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 0, maxLength: 8 }), async (changes) => {
        const first = registry();
        const start = await upload((await knowledgeBase()).ragId, ['refund order days', 'shipping price', 'lamp kettle warranty']);
        let kb = start.kb;
        await first.search(kb, 'refund', 5);
        await first.settled();
        await first.close();
        const sources = [start.sourceId];
        const records = [...start.ids];
        for (const c of changes) {
          if (c.kind === 'upload') {
            const done = await upload(kb.ragId, c.texts);
            sources.push(done.sourceId);
            records.push(...done.ids);
          } else if (c.kind === 'delete-source' && sources.length > 0) {
            await store.knowledge.deleteSource(owner, kb.ragId, sources.splice(c.pick % sources.length, 1)[0] as string);
          } else if (c.kind === 'delete-record' && records.length > 0) {
            await store.knowledge.deleteRecord(owner, kb.ragId, records.splice(c.pick % records.length, 1)[0] as string);
          }
        }
        kb = await fresh(kb.ragId);
        const events: IndexEvent[] = [];
        const cold = registry(events);
        await expectFreshRanking(cold, kb);
        expect(events.filter((e) => e.type === 'snapshot-loaded')).toHaveLength(1);
        expect(events.filter((e) => e.type === 'build-started')).toHaveLength(0);
        // …and it goes on changing like any held index.
        kb = (await upload(kb.ragId, ['delivery card hours'])).kb;
        await expectFreshRanking(cold, kb);
        await cold.close();
      }),
      { numRuns: 10 },
    );
  }, 120_000);

  // Damaged bytes, and a snapshot of format 1 (its magic, then its layout deflated, starting with the format number).
  const formatOne = (): Uint8Array => {
    const raw = Buffer.alloc(8);
    raw.writeUInt32LE(1, 0);
    const deflated = deflateRawSync(raw, { level: 1 });
    const out = new Uint8Array(4 + deflated.length);
    new DataView(out.buffer).setUint32(0, 0x58495747, true);
    out.set(deflated, 4);
    return out;
  };
  // A snapshot of format 2 (this magic, its number): 32-bit postings, which format 3 would misread.
  const formatTwo = (): Uint8Array => {
    const list = [{ recordId: 'a', title: null, text: 'refund order days', sourceName: 's' }];
    const bytes = encodeIndexSnapshot(KnowledgeIndex.build(list).toCompact(), { ids: ['a'], titles: [null], texts: ['refund order days'], sources: ['s'], kinds: [undefined] });
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(4, 2, true);
    return bytes;
  };
  it.each([
    ['damaged', () => new Uint8Array([1, 2, 3, 4, 5])],
    ['of format 1', formatOne],
    ['of format 2', formatTwo],
  ])('build from the records when the stored snapshot cannot be used (%s), and replace it', async (_, data) => {
    const { kb } = await upload((await knowledgeBase()).ragId, ['refund order days', 'shipping price']);
    expect(await store.knowledge.writeIndexSnapshot(kb.ragId, { version: kb.contentVersion, data: data() })).toBe(true);
    await expectBuiltThenSnapshotReplaced(kb);
  });

  it('build from the records when a part of the stored snapshot is missing (read in parts), and replace it', async () => {
    const { kb } = await upload((await knowledgeBase()).ragId, ['refund order days', 'shipping price', 'warranty card']);
    const first = registry();
    await expectFreshRanking(first, kb);
    await first.settled();
    // As if a write that replaced it had removed its parts under the reader: no snapshot, never a partial one.
    await (store as unknown as { ctx: SqlContext }).ctx.db.deleteFrom('index_snapshot_parts').where('rag_id', '=', kb.ragId).execute();
    await expectBuiltThenSnapshotReplaced(kb);
  });

  it('build a large knowledge base from its records sent to the thread in parts, ranking as a fresh build, and load it from the snapshot made of them', async () => {
    const events: IndexEvent[] = [];
    // 4,500 records: three parts of at most 2,000 (index-build-threads.ts), the last with the build message.
    const texts = Array.from({ length: 4500 }, (_, i) => `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${WORDS[(i * 11) % WORDS.length]} item${i}`);
    const { kb } = await upload((await knowledgeBase()).ragId, texts);
    const r = registry(events);
    await expectFreshRanking(r, kb);
    expect(events.filter((e) => e.type === 'build-started')).toHaveLength(1);
    expect((await r.search(kb, 'item4499', 1)).hits[0]?.text).toContain('item4499.');
    await r.settled();
    const again: IndexEvent[] = [];
    const cold = registry(again);
    await expectFreshRanking(cold, kb);
    expect(again.map((e) => e.type)).toEqual(['snapshot-loaded']);
    expect((await cold.search(kb, 'item0', 1)).hits[0]?.text).toContain('item0.');
  }, 120_000);

  it('share one build between concurrent queries to one knowledge base', async () => {
    const events: IndexEvent[] = [];
    const r = registry(events);
    const { kb } = await upload((await knowledgeBase()).ragId, Array.from({ length: 50 }, (_, i) => `refund order ${WORDS[i % WORDS.length]}`));
    const results = await Promise.all(Array.from({ length: 8 }, () => r.search(kb, 'refund order', 3)));
    expect(new Set(results.map((x) => JSON.stringify(x.hits))).size).toBe(1);
    expect(events.filter((e) => e.type === 'build-started')).toHaveLength(1);
  });

  it('build on a worker thread: a small knowledge base answers while a large one’s index is being built', async () => {
    const events: IndexEvent[] = [];
    const r = registry(events);
    const small = (await upload((await knowledgeBase()).ragId, ['opening hours monday', 'refund days'])).kb;
    await r.search(small, 'opening hours', 3);
    let large = await knowledgeBase();
    const texts = Array.from({ length: 20_000 }, (_, i) => `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} item${i} warranty shipping order number ${i % 997} refund`);
    for (let i = 0; i < texts.length; i += 5000) large = (await upload(large.ragId, texts.slice(i, i + 5000))).kb;

    const order: string[] = [];
    const started = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (events.some((e) => e.type === 'build-started' && e.ragId === large.ragId)) {
          clearInterval(check);
          resolve();
        }
      }, 1);
    });
    const largeQuery = r.search(large, 'warranty item42', 3).then((x) => {
      order.push('large');
      return x;
    });
    await started;
    const smallAnswer = await r.search(small, 'opening hours', 3);
    order.push('small');
    const largeAnswer = await largeQuery;
    expect(order).toEqual(['small', 'large']);
    expect(smallAnswer.hits[0]?.text).toContain('opening hours monday');
    expect(largeAnswer.hits[0]?.text).toContain('item42 ');
  }, 120_000);
});

describe('the byte budget', () => {
  it('keeps the indexes within it, dropping the least recently used', async () => {
    const events: IndexEvent[] = [];
    const kbs: KnowledgeBase[] = [];
    for (let i = 0; i < 6; i++) kbs.push((await upload((await knowledgeBase()).ragId, Array.from({ length: 30 }, (_, j) => `refund order ${j} shop ${i}`))).kb);
    const one = KnowledgeIndex.build((await store.knowledge.allRecords(kbs[0]?.ragId as string)).map((x) => ({ ...x, sourceName: x.sourceName }))).approximateBytes();
    const r = registry(events, one * 3.5);
    for (const kb of kbs) await r.search(kb, 'refund', 3);
    expect(r.heldBytes).toBeLessThanOrEqual(one * 3.5);
    expect(r.heldBytes).toBeGreaterThan(one * 2);
    // The most recent ones are kept; the first was dropped and loads again from its snapshot.
    await r.settled();
    await r.search(kbs[5] as KnowledgeBase, 'refund', 3);
    await r.search(kbs[0] as KnowledgeBase, 'refund', 3);
    expect(events.filter((e) => e.type === 'build-started' && e.ragId === kbs[5]?.ragId)).toHaveLength(1);
    expect(events.filter((e) => e.type === 'build-started' && e.ragId === kbs[0]?.ragId)).toHaveLength(1);
    expect(events.filter((e) => e.type === 'snapshot-loaded' && e.ragId === kbs[0]?.ragId)).toHaveLength(1);
  });
});
