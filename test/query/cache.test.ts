/**
 * The answer cache (product.md §5): identical normalised questions on the
 * same content version are served from the cache; new content invalidates at
 * once; QUERY_CACHE_TTL_SECONDS=0 disables it; a cached answer still counts
 * toward the limits. Run with the in-process cache and, when REDIS_URL is
 * set, with the shared Redis cache.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../api/helpers.js';
import { describeIf, redis } from '../support/requirements.js';
import { type Client, signedInClient, startServer, type TestServer } from '../support/server.js';
import { ask, askStream, createKb, createKey, faqKnowledgeBase, uploadFile } from './helpers.js';

const ratePerMinute = 6;

function cacheSuite(backend: string, extraEnv: () => Record<string, string>): void {
  let server: TestServer;
  let noCache: TestServer;
  let alice: Client;

  beforeAll(async () => {
    const common = { MAX_KNOWLEDGE_BASES: '30', QUERY_QUOTA_PER_DAY: '0', ...extraEnv() };
    [server, noCache] = await Promise.all([
      startServer({ ...common, QUERY_RATE_PER_MINUTE: String(ratePerMinute) }),
      startServer({ ...common, QUERY_RATE_PER_MINUTE: '0', QUERY_CACHE_TTL_SECONDS: '0' }),
    ]);
    alice = await signedInClient(server.baseUrl);
  });
  afterAll(async () => {
    await server?.stop();
    await noCache?.stop();
  });

  it(`${backend}: the same question twice → the second is cached, with the same answer`, async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice);
    const first = await ask(server.baseUrl, apiKey, ragId, 'Where do orders ship from?');
    const second = await ask(server.baseUrl, apiKey, ragId, 'Where do orders ship from?');
    expect(first.body.cached).toBe(false);
    expect(second.body.cached).toBe(true);
    expect(second.body.answer).toBe(first.body.answer);
    expect(second.body.sources).toEqual(first.body.sources);
    expect(second.body.grounded).toBe(first.body.grounded);
    expect(second.body.requestId).not.toBe(first.body.requestId);
  });

  it(`${backend}: every hit's body is the answer as first sent, with its own request id`, async () => {
    // In process, a hit's body is kept serialised up to the request id (routes/query.ts, cachedBody).
    const { ragId, apiKey } = await faqKnowledgeBase(alice);
    const first = await ask(server.baseUrl, apiKey, ragId, 'Do you ship to Canada?');
    const hits = [await ask(server.baseUrl, apiKey, ragId, 'Do you ship to Canada?'), await ask(server.baseUrl, apiKey, ragId, 'do you ship to canada')];
    const ids = new Set([first.body.requestId]);
    for (const hit of hits) {
      expect(hit.status).toBe(200);
      expect(hit.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(hit.body).toEqual({ ...first.body, cached: true, requestId: hit.headers.get('x-request-id') });
      ids.add(hit.body.requestId);
    }
    expect(ids.size).toBe(3);
  });

  it(`${backend}: normalised variants (case, spacing, trailing punctuation) share the answer`, async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice);
    const first = await ask(server.baseUrl, apiKey, ragId, 'Do you sell gift cards?');
    expect(first.body.cached).toBe(false);
    for (const variant of ['DO YOU SELL GIFT CARDS?', '  do   you sell\tgift cards  ', 'Do you sell gift cards', 'do you sell gift cards ??']) {
      const again = await ask(server.baseUrl, apiKey, ragId, variant);
      expect(again.body.cached, variant).toBe(true);
      expect(again.body.answer).toBe(first.body.answer);
    }
    // A different question is not.
    const other = await ask(server.baseUrl, apiKey, ragId, 'Do you sell bikes?');
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    expect(other.body.cached).toBe(false);
  });

  it(`${backend}: the stream and the JSON endpoint share the cache`, async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice);
    const streamed = await askStream(server.baseUrl, apiKey, ragId, 'Is there a warranty on the frame?');
    expect(streamed.events.at(-1)?.data.cached).toBe(false);
    const json = await ask(server.baseUrl, apiKey, ragId, 'is there a warranty on the frame');
    expect(json.body.cached).toBe(true);
    expect(json.body.answer).toBe(streamed.events.at(-1)?.data.answer);
    const again = await askStream(server.baseUrl, apiKey, ragId, 'Is there a warranty on the frame?');
    expect(again.events[0]?.data.cached).toBe(true);
    expect(again.events.at(-1)?.data.cached).toBe(true);
  });

  it(`${backend}: an upload invalidates at once — the next answer is fresh and uses the new record`, async () => {
    const ragId = await createKb(alice, 'Invalidate');
    await uploadFile(alice, ragId, 'hours.md', '# Hours\n\nWe open at nine.\n');
    const { apiKey } = await createKey(alice, ragId);
    const question = 'What is the Zanzibar store code?';
    expect((await ask(server.baseUrl, apiKey, ragId, question)).body).toMatchObject({ grounded: false, cached: false });
    expect((await ask(server.baseUrl, apiKey, ragId, question)).body).toMatchObject({ grounded: false, cached: true });

    await uploadFile(alice, ragId, 'codes.txt', 'The Zanzibar store code is QX-4471.');
    const fresh = await ask(server.baseUrl, apiKey, ragId, question);
    expect(fresh.body.cached).toBe(false);
    expect(fresh.body.grounded).toBe(true);
    expect(fresh.body.answer).toContain('QX-4471');
    const cachedAgain = await ask(server.baseUrl, apiKey, ragId, question);
    expect(cachedAgain.body.cached).toBe(true);
    expect(cachedAgain.body.answer).toContain('QX-4471');
  });

  it(`${backend}: a deletion invalidates at once too`, async () => {
    const ragId = await createKb(alice, 'Invalidate by delete');
    const report = await uploadFile(alice, ragId, 'codes.md', '# Codes\n\nThe Oslo store code is OS-3131.\n\n# Hours\n\nWe open at nine.\n');
    const { apiKey } = await createKey(alice, ragId);
    const question = 'What is the Oslo store code?';
    expect((await ask(server.baseUrl, apiKey, ragId, question)).body.answer).toContain('OS-3131');
    expect((await ask(server.baseUrl, apiKey, ragId, question)).body.cached).toBe(true);
    const codeRecord = report.items.find((i) => i.title === 'Codes')?.recordId ?? report.items[0]?.recordId;
    expect((await alice.delete(`/api/v1/knowledge-bases/${ragId}/records/${codeRecord}`)).status).toBe(204);
    const after = await ask(server.baseUrl, apiKey, ragId, question);
    expect(after.body.cached).toBe(false);
    expect(after.body.answer).not.toContain('OS-3131');
  });

  it(`${backend}: knowledge bases never share cached answers`, async () => {
    const first = await faqKnowledgeBase(alice);
    const secondRag = await createKb(alice, 'Other');
    await uploadFile(alice, secondRag, 'other.md', '# Shipping\n\nOrders ship from our depot in Graz.\n');
    const second = await createKey(alice, secondRag);
    expect((await ask(server.baseUrl, first.apiKey, first.ragId, 'Where do orders ship from?')).body.answer).toContain('Bremen');
    const other = await ask(server.baseUrl, second.apiKey, secondRag, 'Where do orders ship from?');
    expect(other.body.cached).toBe(false);
    expect(other.body.answer).toContain('Graz');
  });

  it(`${backend}: QUERY_CACHE_TTL_SECONDS=0 disables the cache`, async () => {
    const client = await signedInClient(noCache.baseUrl);
    const { ragId, apiKey } = await faqKnowledgeBase(client);
    for (let i = 0; i < 3; i++) {
      const response = await ask(noCache.baseUrl, apiKey, ragId, 'Where do orders ship from?');
      expect(response.body.cached).toBe(false);
      expect(response.body.grounded).toBe(true);
    }
    const streamed = await askStream(noCache.baseUrl, apiKey, ragId, 'Where do orders ship from?');
    expect(streamed.events[0]?.data.cached).toBe(false);
  });

  it(`${backend}: a cached answer still counts toward the limits and the usage`, async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice);
    const remaining: number[] = [];
    for (let i = 0; i < ratePerMinute; i++) {
      const response = await ask(server.baseUrl, apiKey, ragId, 'Where do orders ship from?');
      expect(response.status).toBe(200);
      expect(response.body.cached).toBe(i > 0);
      remaining.push(Number(/"minute";r=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1]));
    }
    expect(remaining).toEqual(Array.from({ length: ratePerMinute }, (_, i) => ratePerMinute - 1 - i));
    const refused = await ask(server.baseUrl, apiKey, ragId, 'Where do orders ship from?');
    expect(expectProblem(refused, 429, 'rate_limited').limit).toBe('minute');

    const usage = await alice.get<{ totals: { queries: number; cacheHits: number; unanswered: number } }>(`/api/v1/knowledge-bases/${ragId}/usage`);
    expect(usage.status).toBe(200);
    expect(usage.body.totals).toEqual({ queries: ratePerMinute, cacheHits: ratePerMinute - 1, unanswered: 0, helpful: 0, unhelpful: 0 });
  });
}

describe('in-process cache', () => {
  cacheSuite('memory', () => ({}));
});

describeIf(redis, 'Redis cache', () => {
  cacheSuite('redis', () => ({ REDIS_URL: process.env.REDIS_URL as string }));
});
