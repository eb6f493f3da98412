/**
 * The scale table: how Groundwork holds up as one knowledge base grows (25 … 100,000 records)
 * and as knowledge bases multiply (1,000 / 10,000 of 25 records each), with the in-memory
 * retriever (SQLite) and, when DATABASE_URL is set, the PostgreSQL retriever (PostgreSQL store,
 * a schema of its own per row, dropped afterwards).
 *
 * Each row has its own server. It is seeded through the public API (sign-in, uploads of
 * generated FAQ records in files of at most 20,000, keys), then stopped and started again on the
 * same data, so what follows sees a cold process as after a deploy:
 *
 * - cold first query: the first `POST /api/v1/query` to the (largest) knowledge base, after 20
 *   queries to another one have warmed the process (so it times the index, not the first request);
 * - query p50 / p99: closed-loop queries (cache off, each question text new) from a few
 *   connections, after the first; with many knowledge bases, round-robin over all of them after
 *   one untimed pass that touched each;
 * - ingest → searchable: one-record uploads, each followed by queries until one finds it;
 * - idle memory: once the closed-loop queries have ended (every knowledge base touched, none busy),
 *   the server runs full collections (it is started with --expose-gc, for this only) and reports
 *   its RSS and its live bytes (`heapUsed + arrayBuffers`); issue 14's "memory per idle knowledge
 *   base" is judged on that RSS (bench/report.ts), the live bytes say how much of it is held;
 * - peak RSS of the server process (`process.resourceUsage().maxRSS`) over all of the above;
 * - head of line (at one size, normally the largest): after another restart, a 25-record knowledge
 *   base's query latency on its own, then while the large knowledge base's first query (its index
 *   load) is in flight.
 */
import pg from 'pg';
import type { Client } from '../test/support/server.js';
import { signedInClient } from '../test/support/server.js';
import { type ServerChild, spawnServer, startupTimeoutMs, tempDir } from './children.js';
import { FAQ, faqJson } from './faq.js';
import { scaleQuestions, syntheticFaq, uniqueQuestions } from './generated.js';
import { TimedClient } from './http-client.js';
import { httpSeries } from './ingest.js';
import { createKey, createKnowledgeBase, type QueryAnswer, type UploadResult } from './setup.js';
import { histogram, type LatencySummary, recordMs, round, summarise } from './stats.js';

export type RetrieverKind = 'memory' | 'postgres';

export interface ScaleSettings {
  /** Sizes of one knowledge base, in records (with the probe of the ingest measurement). */
  records: number[];
  /** Counts of 25-record knowledge bases. */
  knowledgeBases: number[];
  retrievers: RetrieverKind[];
  /** Required for the PostgreSQL retriever. */
  databaseUrl?: string | undefined;
  ingestIterations: number;
  /** Closed-loop query measurement: connections, and seconds (records rows). */
  queryConnections: number;
  querySeconds: number;
  /** Closed-loop queries before the measured window, at least (besides the 50 or the round that touches every knowledge base). */
  queryWarmupSeconds: number;
  /** The records size at which the head-of-line scenario runs (undefined: none). */
  headOfLineAt: number | undefined;
  headOfLineBaselineSec: number;
  serverCpus: string | undefined;
  env: Record<string, string>;
  log: (message: string) => void;
}

export interface HeadOfLine {
  /** The 25-record knowledge base alone (after a warm-up). */
  baseline: LatencySummary;
  /** Its queries sent while the large knowledge base's first query was in flight. */
  during: LatencySummary;
  /** That first (cold) query of the large knowledge base, ms. */
  largeFirstQueryMs: number;
}

export interface ScaleRow {
  retriever: RetrieverKind;
  kind: 'records' | 'knowledgeBases';
  /** Records in the knowledge base, or number of knowledge bases. */
  size: number;
  records: number;
  knowledgeBases: number;
  seedSec: number;
  /** Time from spawning the restarted server to its readiness. */
  startupMs: number;
  coldFirstQueryMs: number;
  query: LatencySummary;
  queriesPerSecond: number;
  serverCpuUsPerQuery: number;
  ingestToSearchable: LatencySummary;
  ingestFoundOnFirstQuery: number;
  peakRssMb: number;
  rssMb: number;
  /** After the queries, idle, after full collections (`ServerChild.idleMemory`): RSS and heapUsed + arrayBuffers. */
  idleRssMb: number;
  idleLiveMb: number;
  /** The heap's size then (`heapTotal`: its free space included), for what of RSS − live bytes is the heap's. */
  idleHeapTotalMb: number;
  /** Whether the figures above follow full collections (false: the server had no `gc`). */
  idleCollected: boolean;
  headOfLine: HeadOfLine | null;
}

const CHUNK = 20_000;
const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

function check<T>(response: { status: number; body: T }, expected: number, what: string): T {
  if (response.status !== expected) throw new Error(`${what}: HTTP ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
  return response.body;
}

interface Kb {
  ragId: string;
  apiKey: string;
}

/** Runs `work` over `items` with at most `limit` at once. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i] as T, i);
      }
    }),
  );
  return out;
}

async function seedKnowledgeBase(client: Client, name: string, records: number): Promise<Kb> {
  const ragId = await createKnowledgeBase(client, name);
  for (let offset = 0; offset < records; offset += CHUNK) {
    const entries = records === FAQ.length && offset === 0 ? [...FAQ] : syntheticFaq(Math.min(CHUNK, records - offset), offset);
    const uploaded = check(await client.upload<UploadResult>(ragId, `catalogue-${offset}.json`, faqJson(entries), 'application/json'), 201, 'seeding upload');
    if (uploaded.added !== entries.length) throw new Error(`seeding upload added ${uploaded.added} of ${entries.length} records`);
  }
  return { ragId, apiKey: await createKey(client, ragId) };
}

/** Closed-loop queries from `connections` loops until `until()` says stop; latencies of 200 responses. */
async function queryLoop(http: TimedClient, connections: number, next: () => { kb: Kb; query: string }, until: (count: number) => boolean): Promise<{ latency: LatencySummary; count: number; wallMs: number }> {
  const h = histogram();
  let count = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (!until(count)) {
        const { kb, query } = next();
        const q0 = performance.now();
        const answer = await http.json('POST', '/api/v1/query', { ragId: kb.ragId, query }, { 'x-api-key': kb.apiKey });
        recordMs(h, performance.now() - q0);
        if (answer.status !== 200) throw new Error(`query failed: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
        count++;
      }
    }),
  );
  return { latency: summarise(h), count, wallMs: performance.now() - t0 };
}

async function timedQuery(http: TimedClient, kb: Kb, query: string): Promise<number> {
  const t0 = performance.now();
  const answer = await http.json('POST', '/api/v1/query', { ragId: kb.ragId, query }, { 'x-api-key': kb.apiKey });
  const ms = performance.now() - t0;
  if (answer.status !== 200) throw new Error(`query failed: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
  JSON.parse(answer.text) as QueryAnswer;
  return ms;
}

export async function withSchema<T>(databaseUrl: string, work: (url: string) => Promise<T>): Promise<T> {
  const schema = `gw_bench_${process.pid}_${Date.now().toString(36)}`;
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE SCHEMA "${schema}"`);
  try {
    return await work(url.toString());
  } finally {
    await admin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  }
}

async function scaleRow(settings: ScaleSettings, retriever: RetrieverKind, kind: ScaleRow['kind'], size: number, databaseUrl: string | undefined): Promise<ScaleRow> {
  const records = kind === 'records' ? size : FAQ.length;
  const kbCount = kind === 'records' ? 1 : size;
  const headOfLine = kind === 'records' && settings.headOfLineAt === size;
  const label = `scale, ${retriever}, ${kind === 'records' ? `${size.toLocaleString('en-US')} records` : `${size.toLocaleString('en-US')} knowledge bases`}`;
  const env: Record<string, string> = {
    ...settings.env,
    DATA_DIR: tempDir('gw-bench-scale-'),
    QUERY_CACHE_TTL_SECONDS: '0',
    MAX_RECORDS_PER_KB: String(Math.max(records, FAQ.length) + 10),
    MAX_KNOWLEDGE_BASES: String(kbCount + 4),
    UPLOAD_QUEUE_PER_ACCOUNT: '16',
    ...(retriever === 'postgres' ? { DATABASE_URL: databaseUrl as string, RETRIEVAL_BACKEND: 'postgres' } : {}),
  };
  const work = { records: records * kbCount, knowledgeBases: kbCount };
  // --expose-gc: the idle-memory figures follow full collections (children.ts, `idleMemory`).
  const spawn = () => spawnServer(label, { script: 'server-groundwork.mjs', cpus: settings.serverCpus, env, timeoutMs: startupTimeoutMs(work), nodeFlags: ['--expose-gc'] });
  const email = `bench.scale.${process.pid}.${Date.now()}@example.test`;

  // --- seeding (not measured) ----------------------------------------------------------------
  settings.log(`${label}: seeding`);
  const seedStart = performance.now();
  let server: ServerChild = await spawn();
  let kbs: Kb[];
  let small: Kb | undefined;
  try {
    const client = await signedInClient(server.url, email);
    if (kind === 'records') {
      // The ingest probe makes it `size` records.
      kbs = [await seedKnowledgeBase(client, 'Bench catalogue', Math.max(1, size - 1))];
      // A separate 25-record knowledge base: it warms the restarted process (its first requests) before
      // the cold query, and is the small tenant of the head-of-line scenario.
      small = await seedKnowledgeBase(client, 'Bench small', FAQ.length);
    } else {
      kbs = await pool(
        Array.from({ length: size }, (_, i) => i),
        4,
        (i) => seedKnowledgeBase(client, `Bench shop ${i}`, FAQ.length),
      );
    }
  } finally {
    await server.stop();
  }
  const seedSec = round((performance.now() - seedStart) / 1000, 1);
  const first = kbs[0] as Kb;

  // --- measured, on a restarted server ---------------------------------------------------------
  settings.log(`${label}: restart, cold first query, queries, ingest`);
  server = await spawn();
  const http = new TimedClient(server.url);
  try {
    const startupMs = round(server.startupMs, 0);
    const questions = kind === 'records' ? scaleQuestions(Math.max(1, size - 1)) : uniqueQuestions(0);
    // The process's own first requests (code loaded and compiled on first use) are not the index's.
    const warmKb = small ?? (kbs[kbs.length - 1] as Kb);
    const warmQuestions = uniqueQuestions(900_000);
    if (warmKb !== first) for (let i = 0; i < 20; i++) await timedQuery(http, warmKb, warmQuestions());
    const coldFirstQueryMs = round(await timedQuery(http, first, questions()), 2);

    let rr = 0;
    const next = kind === 'records' ? () => ({ kb: first, query: questions() }) : () => ({ kb: kbs[rr++ % kbs.length] as Kb, query: questions() });
    // Untimed: every knowledge base touched once (their first queries build their indexes), or 50
    // queries, and in either case for `queryWarmupSeconds` at least, so the window measures the
    // settled process (its answer-analysis cache filled, its code compiled), not its first seconds.
    const warmUntil = performance.now() + settings.queryWarmupSeconds * 1000;
    const warmed = kind === 'knowledgeBases' ? kbs.length - 1 : 50;
    await queryLoop(http, settings.queryConnections, next, (n) => n >= warmed && performance.now() >= warmUntil);
    const cpu0 = await server.cpuMicros();
    const end = performance.now() + settings.querySeconds * 1000;
    const measured = await queryLoop(http, settings.queryConnections, next, (n) =>
      kind === 'records' ? performance.now() >= end : n >= Math.max(kbs.length, 200) && performance.now() >= end,
    );
    const cpuUs = (await server.cpuMicros()) - cpu0;
    // Every knowledge base touched and none busy now: what the process holds for them once collected.
    const idle = await server.idleMemory();

    const session = await signedInClient(server.url, email);
    const sessionHttp = new TimedClient(server.url, { cookie: session.cookie, 'x-csrf-token': session.csrfToken });
    let ingest;
    try {
      [ingest] = await httpSeries(
        sessionHttp,
        first,
        settings.ingestIterations,
        300_000,
        [(entry) => sessionHttp.upload(`/api/v1/knowledge-bases/${first.ragId}/sources`, 'new-product.json', JSON.stringify([entry]), 'application/json')],
        1,
      );
    } finally {
      sessionHttp.close();
    }
    if (!ingest) throw new Error('the ingest series returned no result');
    const stats = await server.stats();
    const row: ScaleRow = {
      retriever,
      kind,
      size,
      records,
      knowledgeBases: kbCount,
      seedSec,
      startupMs,
      coldFirstQueryMs,
      query: measured.latency,
      queriesPerSecond: round(measured.count / (measured.wallMs / 1000), 0),
      serverCpuUsPerQuery: round(cpuUs / measured.count, 1),
      ingestToSearchable: ingest.ingestToSearchable,
      ingestFoundOnFirstQuery: ingest.foundOnFirstQuery,
      peakRssMb: mb(stats.maxRssBytes),
      rssMb: mb(stats.rssBytes),
      idleRssMb: mb(idle.rssBytes),
      idleLiveMb: mb(idle.liveBytes),
      idleHeapTotalMb: mb(idle.heapTotalBytes),
      idleCollected: idle.collected,
      headOfLine: null,
    };
    http.close();
    await server.stop();

    if (headOfLine && small) {
      settings.log(`${label}: restart, head of line (25-record knowledge base while the large index loads)`);
      server = await spawn();
      row.headOfLine = await headOfLineScenario(server, small, first, size, settings);
    }
    return row;
  } finally {
    http.close();
    await server.stop();
  }
}

async function headOfLineScenario(server: ServerChild, small: Kb, large: Kb, size: number, settings: ScaleSettings): Promise<HeadOfLine> {
  const http = new TimedClient(server.url);
  try {
    const smallQuestions = uniqueQuestions(500_000);
    const nextSmall = () => ({ kb: small, query: smallQuestions() });
    await queryLoop(http, 2, nextSmall, (n) => n >= 50);
    const end = performance.now() + settings.headOfLineBaselineSec * 1000;
    const baseline = await queryLoop(http, 2, nextSmall, () => performance.now() >= end);
    let settled = false;
    const largeQuery = timedQuery(http, large, scaleQuestions(Math.max(1, size - 1), 7)()).finally(() => {
      settled = true;
    });
    const during = await queryLoop(http, 2, nextSmall, () => settled);
    return { baseline: baseline.latency, during: during.latency, largeFirstQueryMs: round(await largeQuery, 2) };
  } finally {
    http.close();
    await server.stop();
  }
}

export async function scaleTable(settings: ScaleSettings): Promise<ScaleRow[]> {
  const rows: ScaleRow[] = [];
  const plan = [
    ...settings.records.map((size) => ({ kind: 'records' as const, size })),
    ...settings.knowledgeBases.map((size) => ({ kind: 'knowledgeBases' as const, size })),
  ];
  for (const retriever of settings.retrievers) {
    if (retriever === 'postgres' && !settings.databaseUrl) continue;
    for (const { kind, size } of plan) {
      rows.push(
        retriever === 'postgres'
          ? // A schema of its own per row, so no row searches beside another's data.
            await withSchema(settings.databaseUrl as string, (url) => scaleRow(settings, retriever, kind, size, url))
          : await scaleRow(settings, retriever, kind, size, undefined),
      );
    }
  }
  return rows;
}
