/**
 * Two instances behind one load balancer (product.md §3, §10): the same
 * PostgreSQL database and the same Redis. What one instance writes, the other
 * sees on its next request: records, keys and their revocation, the
 * per-minute limit, cached answers. A fresh database per run, dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectProblem } from '../api/helpers.js';
import { ask, createKb, createKey, faqKnowledgeBase, post, uploadFile } from '../query/helpers.js';
import { describeIf, postgres, redis } from '../support/requirements.js';
import { Client, signedInClient, startServer, type TestServer } from '../support/server.js';

const both = {
  available: postgres.available && redis.available,
  reason: [!postgres.available && postgres.reason, !redis.available && redis.reason].filter(Boolean).join(' and '),
};

const ratePerMinute = 6;

describeIf(both, 'two instances on one PostgreSQL and one Redis', () => {
  const database = `gw_multi_${randomBytes(6).toString('hex')}`;
  const adminUrl = process.env.DATABASE_URL as string;
  const databaseUrl = (() => {
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    return url.toString();
  })();
  let a: TestServer | undefined;
  let b: TestServer | undefined;
  /** Alice's session, signed in on A; `onB` is the same session talking to B. */
  let onA: Client;
  let onB: Client;

  async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    await admin((c) => c.query(`CREATE DATABASE ${database}`));
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL as string,
      MAX_KNOWLEDGE_BASES: '20',
      QUERY_RATE_PER_MINUTE: String(ratePerMinute),
      QUERY_QUOTA_PER_DAY: '0',
    };
    // Started together: both migrate the empty database at once.
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
    // The development outbox is per process: sign in on A, read the code from A.
    onA = await signedInClient(a.baseUrl);
    onB = new Client(b.baseUrl);
    onB.cookie = onA.cookie;
    onB.csrfToken = onA.csrfToken;
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  });

  const A = () => (a as TestServer).baseUrl;
  const B = () => (b as TestServer).baseUrl;

  it('a session from A works on B (sessions are in the shared database)', async () => {
    const list = await onB.get<{ items: unknown[] }>('/api/v1/knowledge-bases');
    expect(list.status).toBe(200);
  });

  it('a knowledge base and key made on A answer on B', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(onA);
    const response = await ask(B(), apiKey, ragId, 'Where do orders ship from?');
    expect(response.status).toBe(200);
    expect(response.body.grounded).toBe(true);
    expect(response.body.answer).toContain('Bremen');
    const search = await post<{ results: { passage: string }[] }>(B(), '/api/v1/search', { ragId, query: 'gift cards' }, apiKey);
    expect(search.body.results[0]?.passage).toContain('Gift cards');
  });

  it('a record uploaded through A is found through B at once', async () => {
    const ragId = await createKb(onA, 'Fresh');
    await uploadFile(onA, ragId, 'hours.md', '# Hours\n\nWe open at nine.\n');
    const { apiKey } = await createKey(onA, ragId);
    // B builds (and caches) its index at the current version first.
    expect((await ask(B(), apiKey, ragId, 'What is the Zanzibar store code?')).body.grounded).toBe(false);

    await uploadFile(onA, ragId, 'codes.txt', 'The Zanzibar store code is QX-4471.');
    const onInstanceB = await ask(B(), apiKey, ragId, 'What is the Zanzibar store code?');
    expect(onInstanceB.body.cached).toBe(false);
    expect(onInstanceB.body.grounded).toBe(true);
    expect(onInstanceB.body.answer).toContain('QX-4471');
  });

  it('a record deleted through B is gone from A at once', async () => {
    const ragId = await createKb(onA, 'Delete');
    const report = await uploadFile(onA, ragId, 'codes.md', '# Codes\n\nThe Oslo store code is OS-3131.\n\n# Hours\n\nWe open at nine.\n');
    const { apiKey } = await createKey(onA, ragId);
    expect((await ask(A(), apiKey, ragId, 'What is the Oslo store code?')).body.answer).toContain('OS-3131');
    const recordId = report.items.find((i) => i.title === 'Codes')?.recordId ?? report.items[0]?.recordId;
    expect((await onB.delete(`/api/v1/knowledge-bases/${ragId}/records/${recordId}`)).status).toBe(204);
    const after = await ask(A(), apiKey, ragId, 'What is the Oslo store code?');
    expect(after.body.answer).not.toContain('OS-3131');
  });

  it('the per-minute limit is shared: 3 on A + 3 on B, then the next on either is 429', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(onA);
    for (let i = 0; i < 3; i++) expect((await ask(A(), apiKey, ragId, 'Where do orders ship from?')).status).toBe(200);
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await ask(B(), apiKey, ragId, 'Where do orders ship from?');
      expect(response.status).toBe(200);
      remaining.push(Number(/"minute";r=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1]));
    }
    expect(remaining).toEqual([2, 1, 0]);
    for (const base of [A(), B()]) {
      const refused = await ask(base, apiKey, ragId, 'Where do orders ship from?');
      expect(expectProblem(refused, 429, 'rate_limited').limit).toBe('minute');
    }
  });

  it('a key revoked on A fails on B at once', async () => {
    const { ragId, apiKey, keyId } = await faqKnowledgeBase(onA);
    // B has verified (and cached) the key.
    expect((await ask(B(), apiKey, ragId, 'Where do orders ship from?')).status).toBe(200);
    expect((await onA.delete(`/api/v1/knowledge-bases/${ragId}/keys/${keyId}`)).status).toBe(204);
    expectProblem(await ask(B(), apiKey, ragId, 'Where do orders ship from?'), 401, 'unauthorized');
  });

  it('a whitelist changed on A applies on B at once', async () => {
    const { ragId, apiKey, keyId } = await faqKnowledgeBase(onA, ['shop.example.com']);
    const origin = { origin: 'https://shop.example.com' };
    expect((await ask(B(), apiKey, ragId, 'Where do orders ship from?', origin)).status).toBe(200);
    expect((await onA.patch(`/api/v1/knowledge-bases/${ragId}/keys/${keyId}`, { allowedDomains: ['new.example.com'] })).status).toBe(200);
    expectProblem(await ask(B(), apiKey, ragId, 'Where do orders ship from?', origin), 403, 'origin_not_allowed');
    expect((await ask(B(), apiKey, ragId, 'Where do orders ship from?', { origin: 'https://new.example.com' })).status).toBe(200);
  });

  it('a whitelist widened on A lets B through at once (B refused on its copy first)', async () => {
    const { ragId, apiKey, keyId } = await faqKnowledgeBase(onA, ['shop.example.com']);
    const origin = { origin: 'https://new.example.com' };
    expectProblem(await ask(B(), apiKey, ragId, 'Where do orders ship from?', origin), 403, 'origin_not_allowed');
    expect((await onA.patch(`/api/v1/knowledge-bases/${ragId}/keys/${keyId}`, { allowedDomains: ['shop.example.com', 'new.example.com'] })).status).toBe(200);
    expect((await ask(B(), apiKey, ragId, 'Where do orders ship from?', origin)).status).toBe(200);
  });

  it('a knowledge base deleted on A is refused on B at once', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(onA);
    // B holds a copy of the knowledge base and has verified the key.
    expect((await ask(B(), apiKey, ragId, 'Where do orders ship from?')).status).toBe(200);
    expect((await onA.delete(`/api/v1/knowledge-bases/${ragId}`)).status).toBe(204);
    expectProblem(await ask(B(), apiKey, ragId, 'Where do orders ship from?'), 401, 'unauthorized');
  });

  it("a fallback message changed on A is B's answer at once", async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(onA);
    const question = 'Can I pay with seashells?';
    expect((await ask(B(), apiKey, ragId, question)).body.grounded).toBe(false);
    const message = 'Ask us at help@shop.example for anything else.';
    expect((await onA.patch(`/api/v1/knowledge-bases/${ragId}`, { fallbackMessage: message })).status).toBe(200);
    const after = await ask(B(), apiKey, ragId, question);
    expect(after.body.grounded).toBe(false);
    expect(after.body.answer).toContain(message);
  });

  it('an answer cached by A is served cached by B', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(onA);
    const first = await ask(A(), apiKey, ragId, 'Do you sell gift cards?');
    expect(first.body.cached).toBe(false);
    const second = await ask(B(), apiKey, ragId, 'do you sell gift cards');
    expect(second.body.cached).toBe(true);
    expect(second.body.answer).toBe(first.body.answer);
    expect(second.body.sources).toEqual(first.body.sources);
    // New content through B invalidates A's cached answer too.
    await uploadFile(onB, ragId, 'more.txt', 'Gift cards never expire.');
    const third = await ask(A(), apiKey, ragId, 'Do you sell gift cards?');
    expect(third.body.cached).toBe(false);
  });
});
