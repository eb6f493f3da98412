/**
 * Uploads wait for an ingestion thread in one queue per account, served in turn, and leave it when
 * their client disconnects (docs/ingestion.md §10). A real server over real sockets (compose +
 * buildApp + listen, as `start` does) whose ingestion threads are the test's own: one thread, so
 * the order is decided by the queue alone, and an observer that reports every upload's steps, so
 * the test waits on events, never on the clock.
 *
 * "Large" uploads hold 151,000 distinct headings for 150,000 record slots: the thread reads them
 * up to the 150,000 records one upload may hold (a second or more), and the upload is then refused
 * whole (413 too_many_records), so nothing is stored.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compose } from '../../src/compose.js';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import type { App } from '../../src/http/types.js';
import { type IngestEvent, IngestThreads } from '../../src/knowledge/ingest-threads.js';
import { KnowledgeService } from '../../src/knowledge/knowledge-service.js';
import { type ApiResponse, type Client, freePort, signedInClient } from '../support/server.js';
import { expectProblem } from './helpers.js';

const SLOTS = 150_000;
const PER_ACCOUNT = 4;
const headings = (n: number, from = 0) => Array.from({ length: n }, (_, k) => `# Heading ${from + k}\n`).join('');
const large = headings(SLOTS + 1_000);

let baseUrl: string;
let stop: (() => Promise<void>) | undefined;
const events: IngestEvent[] = [];
let threads: IngestThreads;
/** Resolvers waiting for an event count (see `until`). */
const watchers = new Set<() => void>();

beforeAll(async () => {
  const port = await freePort();
  const config = loadConfig({
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'gw-upload-fair-')),
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'silent',
    IP_RATE_PER_SECOND: '0',
    MAX_RECORDS_PER_KB: String(SLOTS),
    MAX_KNOWLEDGE_BASES: '10',
  });
  threads = new IngestThreads({
    size: 1,
    maxQueuedPerAccount: PER_ACCOUNT,
    observer: (event) => {
      events.push(event);
      for (const check of watchers) check();
    },
  });
  const composition = await compose(config, pino({ level: 'silent' }));
  // The service as compose builds it, with the test's own (observed) ingestion threads.
  const knowledge = new KnowledgeService(composition.store.knowledge, config, undefined, threads);
  const closeServices = async () => {
    await knowledge.close();
    await composition.close();
  };
  stop = closeServices;
  const app: App = await buildApp({ ...composition.deps, knowledge });
  stop = async () => {
    await app.close();
    await closeServices();
  };
  await app.listen({ port, host: '127.0.0.1' });
  baseUrl = config.publicUrl;
});
afterAll(() => stop?.());

/** Resolves once `predicate` holds over the events seen so far (the test's timeout bounds the wait). */
function until(predicate: (seen: IngestEvent[]) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!predicate(events)) return;
      watchers.delete(check);
      resolve();
    };
    watchers.add(check);
    check();
  });
}

const count = (type: IngestEvent['type'], account?: string) => (seen: IngestEvent[]) =>
  seen.filter((e) => e.type === type && (account === undefined || e.account === account)).length;

async function newKb(client: Client): Promise<string> {
  const created = await client.post<{ ragId: string }>('/api/v1/knowledge-bases', { botName: 'Uploads' });
  expect(created.status).toBe(201);
  return created.body.ragId;
}

async function recordCount(client: Client, ragId: string): Promise<number> {
  const kb = await client.get<{ recordCount: number }>(`/api/v1/knowledge-bases/${ragId}`);
  expect(kb.status).toBe(200);
  return kb.body.recordCount;
}

/** A multipart upload that `signal` can abort (the client disconnects); rejects when aborted. */
async function abortableUpload(client: Client, ragId: string, content: string, signal: AbortSignal): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([content]), 'faq.md');
  return fetch(`${baseUrl}/api/v1/knowledge-bases/${ragId}/sources`, {
    method: 'POST',
    headers: { cookie: client.cookie, 'x-csrf-token': client.csrfToken },
    body: form,
    signal,
  });
}

/** The account id of the next `queued` event's upload, once `send` has made it. */
async function accountOfNextUpload<T>(send: () => T): Promise<{ account: string; sent: T }> {
  const before = events.length;
  const sent = send();
  await until((seen) => seen.slice(before).some((e) => e.type === 'queued'));
  return { account: (events.slice(before).find((e) => e.type === 'queued') as IngestEvent).account, sent };
}

describe('upload queue fairness', () => {
  it('answers another account’s small upload before one account’s queue of large uploads drains', { timeout: 180_000 }, async () => {
    const [alice, bob] = await Promise.all([signedInClient(baseUrl), signedInClient(baseUrl)]);
    const [aliceKb, bobKb] = await Promise.all([newKb(alice), newKb(bob)]);
    const answered: string[] = [];
    const track = (label: string, pending: Promise<ApiResponse>) =>
      pending.then((response) => {
        answered.push(label);
        return response;
      });

    const start = events.length;
    const first = await accountOfNextUpload(() => track('alice', alice.upload(aliceKb, 'large.md', large)));
    const aliceUploads = [first.sent];
    // One on the thread and PER_ACCOUNT waiting: Alice's whole share.
    for (let k = 1; k <= PER_ACCOUNT; k++) aliceUploads.push(track('alice', alice.upload(aliceKb, 'large.md', large)));
    await until((seen) => count('queued', first.account)(seen.slice(start)) === PER_ACCOUNT + 1);

    const bobUpload = track('bob', bob.upload(bobKb, 'faq.md', '# Opening hours\nNine to five.\n'));
    const bobAnswer = await bobUpload;
    expect(bobAnswer.status, JSON.stringify(bobAnswer.body)).toBe(201);
    expect(bobAnswer.body).toMatchObject({ added: 1 });

    const aliceAnswers = await Promise.all(aliceUploads);
    for (const answer of aliceAnswers) expect(expectProblem(answer, 413, 'too_many_records')).toMatchObject({ maxRecords: SLOTS });
    const seen = events.slice(start);
    const bobQueued = seen.findIndex((e) => e.type === 'queued' && e.account !== first.account);
    // When Bob's upload joined, Alice still had uploads waiting (the queue's length counts Bob's too).
    const aliceWaiting = (seen[bobQueued] as IngestEvent).queued - 1;
    expect(aliceWaiting).toBeGreaterThanOrEqual(2);
    // Round-robin: Bob's upload was read after at most one more of Alice's, not after her whole queue…
    const startsAfter = seen
      .slice(bobQueued)
      .filter((e) => e.type === 'started')
      .map((e) => (e.account === first.account ? 'alice' : 'bob'));
    expect(startsAfter.indexOf('bob')).toBeLessThanOrEqual(1);
    // …and answered while Alice's queue was still draining.
    expect(answered.indexOf('bob')).toBeLessThan(answered.lastIndexOf('alice'));
    expect(answered.slice(answered.indexOf('bob') + 1).length).toBeGreaterThanOrEqual(aliceWaiting - 1);
    expect(await recordCount(alice, aliceKb)).toBe(0);
  });

  it('refuses an account’s upload past its queue share with 429 and Retry-After, and still serves another account', { timeout: 180_000 }, async () => {
    const [carol, dave] = await Promise.all([signedInClient(baseUrl), signedInClient(baseUrl)]);
    const [carolKb, daveKb] = await Promise.all([newKb(carol), newKb(dave)]);
    const start = events.length;
    const first = await accountOfNextUpload(() => carol.upload(carolKb, 'large.md', large));
    const accepted = [first.sent];
    for (let k = 1; k <= PER_ACCOUNT; k++) accepted.push(carol.upload(carolKb, 'large.md', large));
    await until((seen) => count('queued', first.account)(seen.slice(start)) === PER_ACCOUNT + 1);

    const refused = await carol.upload(carolKb, 'one-more.md', '# One more\nbody\n');
    const problem = expectProblem(refused, 429, 'rate_limited');
    expect(problem).toMatchObject({ limit: 'upload_queue' });
    expect(String(problem.detail)).toMatch(/already has 4 uploads waiting/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    const other = await dave.upload(daveKb, 'faq.md', '# Returns\nWithin 30 days.\n');
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    for (const answer of await Promise.all(accepted)) expectProblem(answer, 413, 'too_many_records');
    // The refused upload never reached the queue, and nothing of Carol's was stored.
    expect(count('queued', first.account)(events.slice(start))).toBe(PER_ACCOUNT + 1);
    expect(await recordCount(carol, carolKb)).toBe(0);
  });

  it('drops a waiting upload whose client disconnects: it never runs and stores nothing', { timeout: 180_000 }, async () => {
    const erin = await signedInClient(baseUrl);
    const [busyKb, leftKb, laterKb] = await Promise.all([newKb(erin), newKb(erin), newKb(erin)]);
    const start = events.length;
    const first = await accountOfNextUpload(() => erin.upload(busyKb, 'large.md', large));
    const erinEvents = (type: IngestEvent['type']) => count(type, first.account)(events.slice(start));
    await until(() => erinEvents('started') === 1);

    const leaving = new AbortController();
    const gone = abortableUpload(erin, leftKb, '# Left early\nThis upload must never be read.\n', leaving.signal).catch((error: unknown) => error);
    await until(() => erinEvents('queued') === 2);
    expect(threads.queueLength).toBe(1);
    leaving.abort();
    expect(await gone).toMatchObject({ name: 'AbortError' });
    await until(() => erinEvents('cancelled') === 1);
    expect(threads.queueLength).toBe(0);

    expectProblem(await first.sent, 413, 'too_many_records');
    // The thread is free again and serves the account's next upload.
    const later = await erin.upload(laterKb, 'faq.md', '# Shipping\nEverywhere in the EU.\n');
    expect(later.status, JSON.stringify(later.body)).toBe(201);
    // Two uploads were read (the large one and the later one), never the one whose client left.
    expect(erinEvents('started')).toBe(2);
    expect(await recordCount(erin, leftKb)).toBe(0);
    expect((await erin.get<{ items: unknown[] }>(`/api/v1/knowledge-bases/${leftKb}/sources`)).body.items).toEqual([]);
  });

  it('stops reading an upload whose client disconnects while it is read, and stores nothing', { timeout: 180_000 }, async () => {
    const frank = await signedInClient(baseUrl);
    const [bigKb, nextKb] = await Promise.all([newKb(frank), newKb(frank)]);
    const start = events.length;
    const leaving = new AbortController();
    // Under the quota: read to the end, this file would be stored as 140,000 records.
    const gone = abortableUpload(frank, bigKb, headings(140_000), leaving.signal).catch((error: unknown) => error);
    await until((seen) => count('started')(seen.slice(start)) === 1);
    leaving.abort();
    expect(await gone).toMatchObject({ name: 'AbortError' });
    await until((seen) => count('cancelled')(seen.slice(start)) === 1);
    expect(count('finished')(events.slice(start))).toBe(0);

    // The ended thread is replaced for the next upload.
    const next = await frank.upload(nextKb, 'faq.md', '# Warranty\nTwo years on frames.\n');
    expect(next.status, JSON.stringify(next.body)).toBe(201);
    expect(await recordCount(frank, bigKb)).toBe(0);
  });
});
