/**
 * Heap of the in-memory retriever (issue 14): bytes of JavaScript heap per record of one large
 * knowledge base, and per small (25-record) knowledge base, as `IndexRegistry` holds them after a
 * query; with the cold build time, the longest event-loop stall during that build, the same for a
 * cold load from the index snapshot that build wrote (a new registry, as after a restart), the
 * snapshot's size, and the search time on the large index. Records are synthetic FAQ entries (~380 bytes) stored in an
 * in-memory SQLite database, loaded by the registry as a query would load them.
 *
 *   npx tsx bench/index-memory.ts [--records 10000] [--kbs 200]
 *
 * Heap figures are `process.memoryUsage().heapUsed` after a full collection, before and after the
 * registry holds the indexes (the records' text is counted: the registry keeps it for answers).
 * For the small knowledge bases, `arrayBuffers` is reported apart (typed arrays' contents live
 * outside the heap), with the registry's own estimate (`approximateBytes`); buffers transferred
 * from the index threads (the postings) are in neither figure (docs/indexing.md, "Memory per knowledge base").
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SqliteStore } from '../src/adapters/storage/sqlite/dialect.js';
import { newId } from '../src/ids.js';
import { fingerprint } from '../src/knowledge/fingerprint.js';
import type { KnowledgeBase } from '../src/knowledge/model.js';
import { IndexRegistry } from '../src/knowledge/query/index-registry.js';
import { FAQ } from './faq.js';
import { seededRandom } from '../src/tools/lorem-ipsum/seeded-random.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} takes a positive whole number`);
  return value;
}


const COMMON = FAQ.flatMap((e) => `${e.question} ${e.answer}`.toLowerCase().match(/[a-z]+/g) ?? []);
const SYLLABLES = 'ka lo mi ne ru sa ti vo be da fe gi ho ju ly po qu ri st wa'.split(' ');

/** A vocabulary of made-up product words (a growing knowledge base keeps meeting new words). */
function rareWords(count: number, next: () => number): string[] {
  const words = new Set<string>();
  while (words.size < count) {
    let w = '';
    const n = 2 + Math.floor(next() * 3);
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

/** ~380-byte records: a question title and an answer of common FAQ words with some rare ones. */
function syntheticRecords(count: number, seed: number): { title: string; text: string }[] {
  const next = seededRandom(seed);
  const rare = rareWords(Math.max(200, count), next);
  const word = () => (next() < 0.8 ? (COMMON[Math.floor(next() * COMMON.length)] as string) : (rare[Math.floor(next() * next() * rare.length)] as string));
  const out: { title: string; text: string }[] = [];
  for (let i = 0; i < count; i++) {
    const title = `${Array.from({ length: 6 }, word).join(' ')}?`;
    let text = '';
    while (text.length < 330) text += `${word()} `;
    out.push({ title, text: `${text.trim()}.` });
  }
  return out;
}

async function main(): Promise<void> {
  const records = arg('records', 10_000);
  const kbs = arg('kbs', 200);
  const store = new SqliteStore(':memory:');
  await store.migrate();
  const owner = (await store.accounts.accountForEmail(`index-memory.${process.pid}@example.test`, newId('acc'))).accountId;

  async function knowledgeBase(entries: { title: string; text: string }[]): Promise<KnowledgeBase> {
    const created = await store.knowledge.createKnowledgeBase({ ragId: newId('kb'), ownerId: owner, botName: 'Bench', description: null, greeting: null, theme: {} }, 1_000_000);
    if (created.kind !== 'created') throw new Error('could not create a knowledge base');
    const source = { sourceId: newId('src'), sourceName: 'faq.json', format: 'json' as const, byteSize: 1, sha256: 'a'.repeat(64), rejectedCount: 0 };
    const candidates = entries.map((e) => ({ recordId: newId('rec'), kind: 'qa' as const, title: e.title, text: `${e.title}\n${e.text}`, fingerprint: fingerprint(`${e.title}\n${e.text}`) }));
    const result = await store.knowledge.commitSource(owner, created.knowledgeBase.ragId, source, candidates, 1_000_000);
    if (result.kind !== 'committed') throw new Error(`upload refused: ${result.kind}`);
    return result.knowledgeBase;
  }

  const heap = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };

  // One large knowledge base.
  const large = await knowledgeBase(syntheticRecords(records, 1));
  const registry = new IndexRegistry(store.knowledge);
  const before = heap();
  // The longest gap between ticks of a 1 ms timer while the index loads: what other requests wait.
  const coldQuery = async (on: IndexRegistry): Promise<{ ms: number; stallMs: number }> => {
    let last = performance.now();
    let stallMs = 0;
    const ticker = setInterval(() => {
      const at = performance.now();
      stallMs = Math.max(stallMs, at - last);
      last = at;
    }, 1);
    const t0 = performance.now();
    await on.search(large, 'refund warranty delivery', 5);
    const ms = performance.now() - t0;
    await new Promise((resolve) => setTimeout(resolve, 5));
    clearInterval(ticker);
    return { ms, stallMs };
  };
  const built = await coldQuery(registry);
  const buildMs = built.ms;
  const stallMs = built.stallMs;
  const perRecord = (heap() - before) / records;
  const questions = syntheticRecords(200, 7).map((r) => r.title);
  const s0 = performance.now();
  let found = 0;
  for (let round = 0; round < 5; round++) for (const q of questions) found += (await registry.search(large, q, 5)).hits.length;
  const searchUs = ((performance.now() - s0) * 1000) / (questions.length * 5);
  await registry.close();

  // The same knowledge base cold again, from the snapshot the build wrote (registry.close waited for it).
  const snapshotBytes = (await store.knowledge.readIndexSnapshot(large.ragId))?.data.length ?? 0;
  const reloaded = new IndexRegistry(store.knowledge);
  const before1 = heap();
  const loaded = await coldQuery(reloaded);
  const perRecordLoaded = (heap() - before1) / records;
  await reloaded.close();

  // Many small knowledge bases (the FAQ with a word changed per knowledge base, 25 records each).
  const small: KnowledgeBase[] = [];
  for (let i = 0; i < kbs; i++) small.push(await knowledgeBase(FAQ.slice(0, 25).map((e, j) => ({ title: e.question, text: `${e.answer} Shop ${i} item ${j}.` }))));
  const many = new IndexRegistry(store.knowledge);
  const before2 = heap();
  const buffers2 = process.memoryUsage().arrayBuffers;
  for (const kb of small) await many.search(kb, 'opening hours', 3);
  const perSmallKb = (heap() - before2) / kbs;
  // Typed arrays' contents live outside the JavaScript heap (but in the RSS): counted apart.
  const buffersPerSmallKb = (process.memoryUsage().arrayBuffers - buffers2) / kbs;
  const estimatePerSmallKb = many.heldBytes / kbs;
  await many.close();
  await store.close();

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`records per large knowledge base: ${records}`);
  console.log(`heap per record (large knowledge base): ${Math.round(perRecord)} B`);
  console.log(`cold build of the large knowledge base: ${buildMs.toFixed(0)} ms; longest event-loop stall during it: ${stallMs.toFixed(0)} ms`);
  console.log(`cold load from the snapshot: ${loaded.ms.toFixed(0)} ms; longest event-loop stall during it: ${loaded.stallMs.toFixed(0)} ms; snapshot ${(snapshotBytes / 1024 / 1024).toFixed(1)} MB; heap per record after it: ${Math.round(perRecordLoaded)} B`);
  console.log(`search on the large index: ${searchUs.toFixed(0)} µs per query (${found} hits)`);
  console.log(`heap per 25-record knowledge base (${kbs} of them): ${kb(perSmallKb)}; array buffers ${kb(buffersPerSmallKb)}; total ${kb(perSmallKb + buffersPerSmallKb)}; approximateBytes ${kb(estimatePerSmallKb)}`);
}

await main();
