/**
 * Ingest-to-searchable: how long after a customer adds a record a query
 * finds it, on a knowledge base that holds 25 records once the new one is in
 * (24 FAQ entries + 1 probe).
 *
 * - Over HTTP: the upload's response time plus the time from that response
 *   until a `POST /api/v1/query` returns the new record among its sources
 *   (normally the first query). Both a multipart file upload and a JSON paste.
 * - In process: `KnowledgeService.ingest` (extract, fingerprint, commit,
 *   index warm-up through the content-change listener, as compose.ts wires
 *   it), then `IndexRegistry.get` and a search, on SQLite with the service's
 *   own settings (a file with synchronous=FULL), plus a breakdown of where the
 *   time goes.
 *
 * After every probe its source is deleted again (not timed).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteStore } from '../src/adapters/storage/sqlite/dialect.js';
import { newId } from '../src/ids.js';
import { extract } from '../src/knowledge/extraction/index.js';
import { KnowledgeService } from '../src/knowledge/knowledge-service.js';
import { IndexRegistry } from '../src/knowledge/query/index-registry.js';
import { KnowledgeIndex } from '../src/knowledge/retrieval/knowledge-index.js';
import type { Client } from '../test/support/server.js';
import { FAQ, type FaqEntry, faqJson } from './faq.js';
import { type RawResponse, TimedClient } from './http-client.js';
import { createKey, createKnowledgeBase, type QueryAnswer, type UploadResult, uploadFaq } from './setup.js';
import { histogram, type LatencySummary, recordMs, summarise, timeMany } from './stats.js';

/** Letters only, so the probe word is one token however the analyser treats digits. */
function tag(i: number): string {
  let out = '';
  let n = i + 26 * 26;
  while (n > 0) {
    out = String.fromCharCode(97 + (n % 26)) + out;
    n = Math.floor(n / 26);
  }
  return out;
}

function probe(i: number): { entry: FaqEntry; question: string } {
  const name = `zorblat${tag(i)}`;
  return {
    entry: {
      question: `Do you sell the ${name} reading lamp?`,
      answer: `Yes. The ${name} reading lamp is in stock in black and brass, costs 89 EUR and ships within two working days.`,
    },
    question: `Is the ${name} lamp available?`,
  };
}

export interface HttpIngestResult {
  iterations: number;
  upload: LatencySummary;
  firstQuery: LatencySummary;
  /** Upload response time + time until a query returned the record. */
  ingestToSearchable: LatencySummary;
  /** Probes found by the very first query after the upload response. */
  foundOnFirstQuery: number;
}

type Send = (entry: FaqEntry) => Promise<RawResponse>;

interface ProbeTimes {
  uploadMs: number;
  firstQueryMs: number;
  totalMs: number;
  foundFirst: boolean;
}

/** One probe: upload it, query until a query returns it, then delete it again (not timed). */
async function timedProbe(http: TimedClient, kb: { ragId: string; apiKey: string }, index: number, send: Send): Promise<ProbeTimes> {
  const { entry, question } = probe(index);
  const t0 = performance.now();
  const sent = await send(entry);
  const t1 = performance.now();
  if (sent.status !== 201) throw new Error(`the probe upload failed: HTTP ${sent.status} ${sent.text.slice(0, 300)}`);
  const report = JSON.parse(sent.text) as UploadResult;
  const recordId = report.items[0]?.recordId;
  if (report.added !== 1 || !recordId) throw new Error(`the probe upload added ${report.added} records`);
  let firstQueryMs = Number.NaN;
  let found = false;
  let foundFirst = false;
  // Queries until the record is found: at most 200, or 10 minutes (a full rebuild of a large index).
  const giveUpAt = performance.now() + 600_000;
  for (let attempt = 0; attempt < 200 && !found && performance.now() < giveUpAt; attempt++) {
    const q0 = performance.now();
    const answer = await http.json('POST', '/api/v1/query', { ragId: kb.ragId, query: question }, { 'x-api-key': kb.apiKey });
    if (attempt === 0) firstQueryMs = performance.now() - q0;
    if (answer.status !== 200) throw new Error(`the probe query failed: HTTP ${answer.status}`);
    found = (JSON.parse(answer.text) as QueryAnswer).sources.some((s) => s.recordId === recordId);
    if (found && attempt === 0) foundFirst = true;
  }
  const t2 = performance.now();
  if (!found) throw new Error('the probe record never became searchable');
  const removed = await http.request('DELETE', `/api/v1/knowledge-bases/${kb.ragId}/sources/${report.source.sourceId}`);
  if (removed.status !== 204) throw new Error(`deleting the probe failed: HTTP ${removed.status}`);
  return { uploadMs: t1 - t0, firstQueryMs, totalMs: t2 - t0, foundFirst };
}

/**
 * `iterations` timed probes of each way of sending after `warmups` untimed ones of each, the ways
 * taking turns probe by probe, so that none of them alone pays for the process's first uploads
 * (the code of the upload path is not yet optimised then) or for a busy moment of the machine.
 * Probe indexes start at `offset` and are 100,000 apart per way.
 */
export async function httpSeries(
  http: TimedClient,
  kb: { ragId: string; apiKey: string },
  iterations: number,
  offset: number,
  sends: readonly Send[],
  warmups = 3,
): Promise<HttpIngestResult[]> {
  const hs = sends.map(() => ({ upload: histogram(), firstQuery: histogram(), total: histogram(), foundFirst: 0 }));
  for (let i = -warmups; i < iterations; i++) {
    for (const [way, send] of sends.entries()) {
      const times = await timedProbe(http, kb, offset + way * 100_000 + i + warmups, send);
      const h = hs[way];
      if (i < 0 || !h) continue;
      recordMs(h.upload, times.uploadMs);
      recordMs(h.firstQuery, times.firstQueryMs);
      recordMs(h.total, times.totalMs);
      if (times.foundFirst) h.foundFirst++;
    }
  }
  return hs.map((h) => ({
    iterations,
    upload: summarise(h.upload),
    firstQuery: summarise(h.firstQuery),
    ingestToSearchable: summarise(h.total),
    foundOnFirstQuery: h.foundFirst,
  }));
}

export interface HttpIngestResults {
  multipart: HttpIngestResult;
  paste: HttpIngestResult;
}

/**
 * Needs a server with room for one more knowledge base on `client`'s account and the query
 * limits off. The timed requests go through a keep-alive node:http client carrying the
 * session of `client`.
 */
export async function httpIngest(baseUrl: string, client: Client, iterations: number): Promise<HttpIngestResults> {
  const ragId = await createKnowledgeBase(client, 'Bench ingest');
  await uploadFaq(client, ragId, FAQ.slice(0, 24), 'faq-24.json');
  const kb = { ragId, apiKey: await createKey(client, ragId) };
  const http = new TimedClient(baseUrl, { cookie: client.cookie, 'x-csrf-token': client.csrfToken });
  try {
    const sources = `/api/v1/knowledge-bases/${ragId}/sources`;
    const [multipart, paste] = await httpSeries(http, kb, iterations, 0, [
      (entry) => http.upload(sources, 'new-product.json', JSON.stringify([entry]), 'application/json'),
      (entry) => http.json('POST', sources, { name: 'pasted', format: 'txt', text: `${entry.question}\n${entry.answer}` }),
    ]);
    if (!multipart || !paste) throw new Error('the ingest series returned no result');
    return { multipart, paste };
  } finally {
    http.close();
  }
}

export interface InProcessIngestResult {
  store: string;
  iterations: number;
  /** ingest() + IndexRegistry.get() + search(), the whole path. */
  ingestToSearchable: LatencySummary;
  /** The parts, timed separately on the same knowledge base. */
  parts: {
    ingest: LatencySummary;
    getAndSearch: LatencySummary;
    extract: LatencySummary;
    allRecords: LatencySummary;
    indexBuild: LatencySummary;
  };
}

export async function inProcessIngest(iterations: number, file: 'disk' | 'memory'): Promise<InProcessIngestResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-ingest-'));
  const store = new SqliteStore(file === 'memory' ? ':memory:' : path.join(dir, 'groundwork.db'));
  try {
    await store.migrate();
    const account = await store.accounts.accountForEmail(`ingest.${process.pid}@example.test`, newId('acc'));
    const knowledge = new KnowledgeService(store.knowledge, { maxKnowledgeBases: 10, maxRecordsPerKb: 25, uploadMaxBytes: 10 * 1024 * 1024 });
    const indexes = new IndexRegistry(store.knowledge);
    // As compose.ts wires it: a change warms this instance's index at once.
    knowledge.onContentChange(async (ragId) => {
      const kb = await store.knowledge.findKnowledgeBase(ragId);
      await indexes.refresh(ragId, kb?.contentVersion);
    });
    const kb = await knowledge.create(account.accountId, { botName: 'Bench ingest' });
    await knowledge.ingest(account.accountId, kb.ragId, { name: 'faq-24.json', format: 'json', bytes: Buffer.from(faqJson(FAQ.slice(0, 24))) });

    const whole = histogram();
    const ingestOnly = histogram();
    const getAndSearch = histogram();
    for (let i = -20; i < iterations; i++) {
      const { entry, question } = probe(200_000 + i + 20);
      const bytes = Buffer.from(JSON.stringify([entry]));
      const t0 = performance.now();
      const report = await knowledge.ingest(account.accountId, kb.ragId, { name: 'new-product.json', format: 'json', bytes });
      const t1 = performance.now();
      const fresh = await store.knowledge.findKnowledgeBase(kb.ragId);
      if (!fresh) throw new Error('the knowledge base vanished');
      const { index } = await indexes.get(fresh);
      const hits = index.search(question, 6);
      const t2 = performance.now();
      if (!hits.some((h) => h.recordId === report.items[0]?.recordId)) throw new Error('the in-process probe was not found');
      if (i >= 0) {
        recordMs(whole, t2 - t0);
        recordMs(ingestOnly, t1 - t0);
        recordMs(getAndSearch, t2 - t1);
      }
      await knowledge.deleteSource(account.accountId, kb.ragId, report.source.sourceId);
    }

    const probeBytes = Buffer.from(JSON.stringify([probe(0).entry]));
    const records = await store.knowledge.allRecords(kb.ragId);
    const indexable = records.map((r) => ({ recordId: r.recordId, title: r.title, text: r.text, sourceName: r.sourceName }));
    return {
      store: file === 'memory' ? 'sqlite :memory:' : 'sqlite file (WAL, synchronous=FULL)',
      iterations,
      ingestToSearchable: summarise(whole),
      parts: {
        ingest: summarise(ingestOnly),
        getAndSearch: summarise(getAndSearch),
        extract: await timeMany(iterations, 20, () => extract(probeBytes, 'json')),
        allRecords: await timeMany(iterations, 20, () => store.knowledge.allRecords(kb.ragId)),
        indexBuild: await timeMany(iterations, 20, () => KnowledgeIndex.build(indexable)),
      },
    };
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
