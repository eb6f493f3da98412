/**
 * Memory per idle 25-record knowledge base through the real application (issue 14's "under 50 KB
 * per idle 25-record knowledge base"; docs/indexing.md, "Session 10: memory per knowledge base").
 *
 *   npx tsx bench/kb-memory.ts [--kbs 500] [--queries 1] [--cache-ttl 0] [--no-limits] [--cpu-rounds 0] [--snapshot] [--redis]
 *
 * As the scale benchmark does (bench/scale.ts): N knowledge bases of the shop FAQ are seeded
 * through the services (upload → extraction → records, a key each), the composition is closed and
 * a fresh one composed on the same store (a restart: indexes load from their snapshots), a few
 * queries warm the code, then every knowledge base gets one query (`--queries Q`: Q, round robin)
 * through `app.inject` (a real `POST /api/v1/query` with its key; each question text new) and the
 * process is left idle.
 *
 * Memory is `heapUsed + arrayBuffers + external` of `process.memoryUsage()` after full
 * collections (typed arrays' contents, and buffers transferred from threads, are in
 * `arrayBuffers`), before and after the queries, divided by N; RSS likewise, for reference (it
 * also holds the heap's free space, which the scale benchmark's peak-RSS figure counts too).
 *
 * Where the bytes are:
 * - switching parts off: each per-knowledge-base holder is emptied in turn (the registry's indexes,
 *   the key cache, the limiter, the answer cache, the usage batch, the knowledge-base copies),
 *   with a collection and a measurement after each; what is left is held elsewhere;
 * - `--snapshot`: heap snapshots before and after, summed by node type and constructor, the
 *   difference per knowledge base (the top rows).
 * `--cache-ttl S`: the answer cache on (the scale benchmark runs with it off). `--redis`: with
 * REDIS_URL (default redis://127.0.0.1:6379), so the query path keeps knowledge-base copies.
 */
import { getHeapSnapshot, setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { LRUCache } from 'lru-cache';
import { SqliteStore } from '../src/adapters/storage/sqlite/dialect.js';
import { compose, type Composition } from '../src/compose.js';
import { buildApp } from '../src/http/app.js';
import { newId } from '../src/ids.js';
import type { KnowledgeBaseCopies } from '../src/knowledge/query/knowledge-base-copies.js';
import type { Retriever } from '../src/knowledge/retrieval/port.js';
import { IndexRegistry } from '../src/knowledge/query/index-registry.js';
import { FAQ, faqJson } from './faq.js';
import { inProcessConfig } from './in-process-config.js';
import { uniqueQuestions } from './generated.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} takes a whole number`);
  return value;
}
const flag = (name: string) => process.argv.includes(`--${name}`);

interface Sample {
  heap: number;
  buffers: number;
  external: number;
  rss: number;
}
const total = (s: Sample) => s.heap + s.buffers + s.external;

async function settle(): Promise<Sample> {
  // Timers (usage flush, snapshot writes) and finalisers get their turn, then full collections.
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    gc();
  }
  const m = process.memoryUsage();
  // `external` includes `arrayBuffers`: counted once.
  return { heap: m.heapUsed, buffers: m.arrayBuffers, external: m.external - m.arrayBuffers, rss: m.rss };
}

/** Self sizes summed by node type and name (constructor for objects), from a heap snapshot. */
async function heapByKind(strings?: Map<string, number>): Promise<Map<string, { bytes: number; count: number }>> {
  gc();
  const chunks: string[] = [];
  for await (const chunk of getHeapSnapshot()) chunks.push(typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8'));
  const snap = JSON.parse(chunks.join('')) as { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[]; strings: string[] };
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = [fields.indexOf('type'), fields.indexOf('name'), fields.indexOf('self_size')];
  const out = new Map<string, { bytes: number; count: number }>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt] as number] as string;
    const name = type === 'string' || type === 'concatenated string' || type === 'sliced string' || type === 'number' ? '' : (snap.strings[snap.nodes[i + nameAt] as number] as string).slice(0, 60);
    const key = `${type} ${name}`.trim();
    if (strings && type === 'string') {
      const value = (snap.strings[snap.nodes[i + nameAt] as number] as string).slice(0, 50);
      strings.set(value, (strings.get(value) ?? 0) + 1);
    }
    const row = out.get(key) ?? { bytes: 0, count: 0 };
    row.bytes += snap.nodes[i + sizeAt] as number;
    row.count++;
    out.set(key, row);
  }
  return out;
}

async function main(): Promise<void> {
  const kbs = arg('kbs', 500);
  const cacheTtl = arg('cache-ttl', 0);
  const withRedis = flag('redis');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-kb-memory-'));
  const config = inProcessConfig(dataDir, {
    // Limits on (as in production, so their state is counted) but never reached by the warm-up;
    // `--no-limits` turns them off as the scale benchmark does.
    QUERY_RATE_PER_MINUTE: flag('no-limits') ? '0' : '1000000000',
    QUERY_QUOTA_PER_DAY: flag('no-limits') ? '0' : '1000000000',
    QUERY_CACHE_TTL_SECONDS: String(cacheTtl),
    MAX_KNOWLEDGE_BASES: String(kbs + 4),
    ...(withRedis ? { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' } : {}),
  });
  const logger = pino({ level: 'silent' });
  const store = new SqliteStore(path.join(dataDir, 'groundwork.db'));
  await store.migrate();

  // --- seeding (a composition of its own, closed before measuring) ---------------------------
  const seeding = await compose(config, logger, { store });
  const owner = (await store.accounts.accountForEmail(`kb-memory.${process.pid}@example.test`, newId('acc'))).accountId;
  const file = new TextEncoder().encode(faqJson(FAQ));
  const tenants: { ragId: string; apiKey: string }[] = [];
  for (let i = 0; i < kbs + 1; i++) {
    const kb = await seeding.deps.knowledge.create(owner, { botName: `Shop ${i}`, description: null, greeting: null });
    await seeding.deps.knowledge.ingest(owner, kb.ragId, { name: 'faq.json', format: 'json', bytes: file });
    const { secret } = await seeding.deps.keys.create(owner, kb.ragId, { allowedDomains: [] });
    tenants.push({ ragId: kb.ragId, apiKey: secret });
  }
  await seeding.close();

  // --- a restarted process ---------------------------------------------------------------------
  const composition: Composition = await compose(config, logger, { store });
  const app = await buildApp(composition.deps);
  const questions = uniqueQuestions(0);
  const query = async (tenant: { ragId: string; apiKey: string }, text: string) => {
    const response = await app.inject({ method: 'POST', url: '/api/v1/query', headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/json' }, payload: JSON.stringify({ ragId: tenant.ragId, query: text }) });
    if (response.statusCode !== 200) throw new Error(`query: HTTP ${response.statusCode} ${response.body.slice(0, 200)}`);
  };
  // Warm-up: the code's first use, on a knowledge base that is then left out of the count.
  const warm = tenants.pop() as { ragId: string; apiKey: string };
  const warmQuestions = uniqueQuestions(900_000);
  for (let i = 0; i < 200; i++) await query(warm, warmQuestions());
  // Questions are drawn from a fixed pool of words: asking them all once up front puts their
  // analysis in the process-wide word cache (tokenize.ts) before the baseline.
  const pool = uniqueQuestions(0);
  for (let i = 0; i < kbs; i++) await query(warm, pool());
  await composition.deps.flushUsage();

  const internals = composition.deps.queries as unknown as { retriever: Retriever; copies?: KnowledgeBaseCopies };
  const registry = internals.retriever;
  const keyCache = (composition.deps.keys as unknown as { cache: LRUCache<string, object> }).cache;
  const snapshots = flag('snapshot');

  const before = await settle();
  // `--write-snapshot PREFIX`: the heap before, after and left (PREFIX-before.heapsnapshot …), for a
  // retainer search in a heap-snapshot viewer. Writing them moves the figures: attribution runs only.
  const writeAt = process.argv.indexOf('--write-snapshot');
  const write = (name: string) => {
    if (writeAt >= 0) writeHeapSnapshot(`${process.argv[writeAt + 1]}-${name}.heapsnapshot`);
  };
  write('before');
  const stringsBefore = new Map<string, number>();
  const kindsBefore = snapshots ? await heapByKind(stringsBefore) : undefined;
  // `--queries Q`: each knowledge base asked Q new questions (round robin), as a few visitors would.
  const perKb = Math.max(1, arg('queries', 1));
  for (let q = 0; q < perKb; q++) for (const tenant of tenants) await query(tenant, questions());
  await composition.deps.flushUsage();
  const after = await settle();
  const kindsAfter = snapshots ? await heapByKind() : undefined;
  write('after');
  const held = registry instanceof IndexRegistry ? registry.heldBytes : 0;
  // `--cpu-rounds R`: then R more rounds of one new question per knowledge base, timed (process CPU per query).
  const rounds = arg('cpu-rounds', 0);
  let cpuPerQuery = 0;
  if (rounds > 0) {
    const c0 = process.cpuUsage();
    for (let r = 0; r < rounds; r++) for (const tenant of tenants) await query(tenant, questions());
    const c = process.cpuUsage(c0);
    cpuPerQuery = (c.user + c.system) / (rounds * tenants.length);
  }

  // --- switching parts off, one at a time --------------------------------------------------
  const answerUnits = (composition.deps.queries as unknown as { answerer: { units?: { entries?: LRUCache<string, object> } } }).answerer.units?.entries;
  const parts: { name: string; off: () => Promise<void> | void }[] = [
    { name: 'index caches (releaseCaches)', off: async () => {
      if (!(registry instanceof IndexRegistry)) return;
      for (const tenant of tenants) (await registry.get({ ragId: tenant.ragId, contentVersion: 0 })).index.releaseCaches();
    } },
    { name: "answerer's record units (RecordUnitsCache)", off: () => answerUnits?.clear() },
    { name: 'indexes (IndexRegistry entries)', off: async () => {
      for (const tenant of tenants) await registry.invalidate(tenant.ragId, undefined);
    } },
    { name: 'knowledge-base copies (Redis only)', off: () => {
      const copies = internals.copies as unknown as { copies?: LRUCache<string, object> } | undefined;
      copies?.copies?.clear();
    } },
    { name: 'key cache (ApiKeyService)', off: () => keyCache.clear() },
    { name: 'rate-limit state (limiter)', off: () => composition.deps.limiter.close() },
    { name: 'answer cache', off: () => composition.deps.cache?.close() },
  ];
  const rows: { name: string; bytes: number }[] = [];
  let last = after;
  for (const part of parts) {
    await part.off();
    const now = await settle();
    rows.push({ name: part.name, bytes: total(last) - total(now) });
    last = now;
  }
  write('left');
  const stringsLeft = new Map<string, number>();
  const kindsLeft = snapshots ? await heapByKind(stringsLeft) : undefined;

  const kb = (bytes: number) => `${(bytes / 1024 / kbs).toFixed(1)} KB`;
  console.log(`knowledge bases: ${kbs} of ${FAQ.length} records, ${perKb} question(s) each; answer cache TTL ${cacheTtl} s; ${withRedis ? 'Redis (knowledge-base copies)' : 'no Redis'}`);
  console.log(`per knowledge base: heap ${kb(after.heap - before.heap)}, array buffers ${kb(after.buffers - before.buffers)}, other external ${kb(after.external - before.external)}; total ${kb(total(after) - total(before))}; RSS ${kb(after.rss - before.rss)}`);
  console.log(`registry's approximateBytes per knowledge base: ${kb(held)}`);
  if (rounds > 0) console.log(`CPU per query, ${rounds} rounds over all knowledge bases: ${cpuPerQuery.toFixed(0)} µs`);
  console.log('emptied in turn (bytes freed per knowledge base):');
  for (const row of rows) console.log(`  ${row.name.padEnd(44)} ${kb(row.bytes)}`);
  console.log(`  ${'left (held elsewhere)'.padEnd(44)} ${kb(total(last) - total(before))}`);
  const table = (title: string, from: Map<string, { bytes: number; count: number }>, to: Map<string, { bytes: number; count: number }>) => {
    const diff: { key: string; bytes: number; count: number }[] = [];
    for (const [key, row] of to) {
      const was = from.get(key) ?? { bytes: 0, count: 0 };
      diff.push({ key, bytes: row.bytes - was.bytes, count: row.count - was.count });
    }
    diff.sort((a, b) => b.bytes - a.bytes);
    console.log(`heap snapshot, ${title}, per knowledge base (self sizes; typed arrays' contents are "JSArrayBufferData"):`);
    for (const row of diff.slice(0, 20)) console.log(`  ${row.key.padEnd(62)} ${(row.bytes / kbs).toFixed(0).padStart(7)} B  ${(row.count / kbs).toFixed(1).padStart(7)} nodes`);
  };
  if (kindsBefore && kindsAfter && kindsLeft) {
    table('after the queries − before', kindsBefore, kindsAfter);
    table('after emptying the parts above − before', kindsBefore, kindsLeft);
    const grown = [...stringsLeft].map(([value, count]) => ({ value, count: count - (stringsBefore.get(value) ?? 0) })).filter((x) => x.count >= kbs / 2);
    grown.sort((a, b) => b.count - a.count);
    console.log(`strings left that are new, at least one per two knowledge bases (${grown.length}): ${grown.slice(0, 30).map((x) => `${JSON.stringify(x.value)}×${(x.count / kbs).toFixed(1)}`).join(', ')}`);
  }
  await app.close();
  await composition.close();
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

await main();
