/**
 * The owner's Playground endpoints (docs/playground.md): `POST /api/v1/knowledge-bases/{ragId}/playground/query`
 * and `…/query/stream` answer the owner — by session (with CSRF) or bearer credential, no query key — with
 * the widget's answer and citations that carry the record's title; another account's knowledge base is
 * 404. They count toward the account's own Playground limits, never toward the knowledge base's visitor
 * quota, and stay out of the usage statistics. The limits run on the in-process limiter and, when
 * REDIS_URL is set, on Redis (fresh accounts every run, so Redis buckets never collide).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, ask, createKb, faqKnowledgeBase, parseSse, post, uploadFile } from '../query/helpers.js';
import { faqJson, faqMarkdown } from '../query/helpers.js';
import { describeIf, redis } from '../support/requirements.js';
import { type ApiResponse, Client, signedInClient, type TestServer } from '../support/server.js';
import { expectProblem, startTestServer } from './helpers.js';

const playground = (ragId: string, stream = false) => `/api/v1/knowledge-bases/${ragId}/playground/query${stream ? '/stream' : ''}`;

/** A client authenticated by `Authorization: Bearer` alone (no cookie, so no CSRF token either). */
class BearerClient extends Client {
  constructor(
    baseUrl: string,
    private readonly credential: string,
  ) {
    super(baseUrl);
  }
  override request<T = Record<string, unknown>>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    return super.request<T>(method, url, body, { authorization: `Bearer ${this.credential}`, ...headers });
  }
}

/** An anonymous agent account, claimed for an account key (`gw_acct_…`). */
async function agentClient(baseUrl: string): Promise<BearerClient> {
  const registered = await post<{ claim_id: string }>(baseUrl, '/oauth/register', { identity_type: 'anonymous' });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  const claimed = await post<{ api_key: string }>(baseUrl, '/oauth/claim', { claim_id: registered.body.claim_id, credential_type: 'api_key' });
  expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
  return new BearerClient(baseUrl, claimed.body.api_key);
}

/** The titles of a knowledge base's records, by record id. */
async function titlesOf(client: Client, ragId: string): Promise<Map<string, string | null>> {
  const records = await client.get<{ items: { recordId: string; title: string | null }[] }>(`/api/v1/knowledge-bases/${ragId}/records?limit=100`);
  expect(records.status).toBe(200);
  return new Map(records.body.items.map((r) => [r.recordId, r.title]));
}

/** Each citation carries its record's title, and at least one has a title. */
function expectTitledCitations(answer: Pick<Answer, 'sources'>, titles: Map<string, string | null>): void {
  expect(answer.sources.length).toBeGreaterThan(0);
  for (const source of answer.sources) {
    expect(titles.has(source.recordId), source.recordId).toBe(true);
    expect(source.title).toBe(titles.get(source.recordId));
  }
  expect(answer.sources.some((s) => typeof s.title === 'string' && s.title.length > 0)).toBe(true);
}

async function usageOf(client: Client, ragId: string) {
  const usage = await client.get<{ totals: { queries: number; cacheHits: number; unanswered: number }; unanswered: { question: string }[] }>(
    `/api/v1/knowledge-bases/${ragId}/usage`,
  );
  expect(usage.status).toBe(200);
  return usage.body;
}

describe('owner queries without a key', () => {
  let server: TestServer;
  let alice: Client;
  let ragId: string;

  beforeAll(async () => {
    // A visitor quota of one question a day: the Playground must not need it, nor use it up.
    server = await startTestServer({ MAX_KNOWLEDGE_BASES: '10', QUERY_RATE_PER_MINUTE: '0', QUERY_QUOTA_PER_DAY: '1' });
    alice = await signedInClient(server.baseUrl);
    ragId = await createKb(alice, 'Nordlicht Bikes');
    await uploadFile(alice, ragId, 'faq.md', faqMarkdown);
    await uploadFile(alice, ragId, 'faq.json', faqJson);
  });
  afterAll(() => server?.stop());

  it('answers the owner signed in (session + CSRF) with cited records and their titles', async () => {
    const response = await alice.post<Answer>(playground(ragId), { query: 'Where do orders ship from?' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.grounded).toBe(true);
    expect(response.body.answer).toMatch(/Bremen/);
    expect(response.body.requestId).toBe(response.headers.get('x-request-id'));
    expectTitledCitations(response.body, await titlesOf(alice, ragId));
    // The FAQ question is the title of a JSON FAQ record.
    const hours = await alice.post<Answer>(playground(ragId), { query: 'What are your opening hours?' });
    expect(hours.status).toBe(200);
    expect(hours.body.sources.map((s) => s.title)).toContain('What are your opening hours?');
    // The Playground's own limits are reported, not the visitors'.
    expect(response.headers.get('ratelimit-policy')).toBe('"playground_minute";q=30;w=60, "playground_day";q=300;w=86400');
  });

  it('answers an account authenticated by a bearer credential, without CSRF', async () => {
    const agent = await agentClient(server.baseUrl);
    const agentKb = await createKb(agent, 'Agent shop');
    await uploadFile(agent, agentKb, 'faq.md', faqMarkdown);
    const response = await agent.post<Answer>(playground(agentKb), { query: 'How long is the warranty on frames?' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.grounded).toBe(true);
    expectTitledCitations(response.body, await titlesOf(agent, agentKb));
    expect(response.body.sources.map((s) => s.title)).toContain('Warranty');
    // Streaming too.
    const stream = await agent.post<string>(playground(agentKb, true), { query: 'How long is the warranty on frames?' });
    expect(stream.status).toBe(200);
    expect(parseSse(stream.body).events.map((e) => e.event)).toEqual(expect.arrayContaining(['meta', 'sources', 'token', 'done']));
  });

  it('streams meta, sources, token… and done, with titled citations', async () => {
    const response = await alice.post<string>(playground(ragId, true), { query: 'Can I return a bike?' }, { accept: 'text/event-stream' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('ratelimit-policy')).toMatch(/^"playground_minute";q=30;w=60/);
    const { events } = parseSse(response.body);
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('meta');
    expect(names[1]).toBe('sources');
    expect(names.filter((n) => n === 'token').length).toBeGreaterThan(0);
    expect(names.at(-1)).toBe('done');
    expect(events.map((e) => Number(e.id))).toEqual(events.map((_, i) => i + 1));
    const done = events.at(-1)?.data as unknown as Answer;
    expect(done.grounded).toBe(true);
    expect(done.answer).toMatch(/30 days/);
    const tokens = events
      .filter((e) => e.event === 'token')
      .map((e) => e.data.text)
      .join('');
    expect(tokens.length).toBeGreaterThan(0);
    expectTitledCitations(done, await titlesOf(alice, ragId));
    expect(events[1]?.data.sources).toEqual(done.sources);
  });

  it('gives the answer the widget gets: same text, citations and grounded state', async () => {
    const { apiKey } = (await alice.post<{ apiKey: string }>(`/api/v1/knowledge-bases/${ragId}/keys`, { allowedDomains: [] })).body;
    const question = 'Do you sell gift cards?';
    const owner = await alice.post<Answer>(playground(ragId), { query: question });
    const visitor = await ask(server.baseUrl, apiKey, ragId, question);
    expect(owner.status).toBe(200);
    expect(visitor.status).toBe(200);
    const { requestId: _a, cached: _b, ...ownerAnswer } = owner.body;
    const { requestId: _c, cached: _d, ...visitorAnswer } = visitor.body;
    expect(ownerAnswer).toEqual(visitorAnswer);
    expect(ownerAnswer.grounded).toBe(true);
    // One answer cache for both: the visitor's repeat of the owner's question was served from it.
    expect(visitor.body.cached).toBe(true);
  });

  it('keeps follow-ups: the conversation is sent as to /api/v1/query', async () => {
    const first = await alice.post<Answer>(playground(ragId), { query: 'Where do orders ship from?' });
    const followUp = await alice.post<Answer>(playground(ragId), {
      query: 'And how long does that take?',
      conversation: [
        { role: 'user', content: 'Where do orders ship from?' },
        { role: 'assistant', content: first.body.answer.replace(/\s*\[\d+\]/g, '') },
      ],
    });
    expect(followUp.status, JSON.stringify(followUp.body)).toBe(200);
    expect(followUp.body.answer).toMatch(/2 business days/);
  });

  it('leaves the visitor quota alone, and answers when visitors have used it up', async () => {
    const kb = await faqKnowledgeBase(alice);
    // Several Playground questions first: the visitors' one question a day is still there.
    for (const query of ['Where do orders ship from?', 'Can I return a bike?', 'Is there a warranty?']) {
      expect((await alice.post(playground(kb.ragId), { query })).status).toBe(200);
    }
    const visitor = await ask(server.baseUrl, kb.apiKey, kb.ragId, 'Where do orders ship from?');
    expect(visitor.status).toBe(200);
    expect(visitor.headers.get('ratelimit')).toMatch(/^"day";r=0;t=\d+$/);
    // Now the visitors' quota is spent: a visitor is refused, the owner still answered (JSON and stream).
    expectProblem(await ask(server.baseUrl, kb.apiKey, kb.ragId, 'Can I return a bike?'), 429, 'rate_limited');
    const owner = await alice.post<Answer>(playground(kb.ragId), { query: 'Can I return a bike?' });
    expect(owner.status).toBe(200);
    expect(owner.body.grounded).toBe(true);
    const stream = await alice.post<string>(playground(kb.ragId, true), { query: 'Where is the warehouse?' });
    expect(stream.status).toBe(200);
    expect(parseSse(stream.body).events.at(-1)?.event).toBe('done');
  });

  it('keeps Playground questions out of the usage statistics and the unanswered list', async () => {
    const kb = await faqKnowledgeBase(alice);
    const unanswerable = 'Do you repair horse saddles?';
    const owner = await alice.post<Answer>(playground(kb.ragId), { query: unanswerable });
    expect(owner.status).toBe(200);
    expect(owner.body.grounded).toBe(false);
    await alice.post(playground(kb.ragId, true), { query: 'Where do orders ship from?' });
    expect((await usageOf(alice, kb.ragId)).totals).toEqual({ queries: 0, cacheHits: 0, unanswered: 0, helpful: 0, unhelpful: 0 });
    // A visitor's unanswered question is counted as before (the owner's same question served from the cache).
    const visitor = await ask(server.baseUrl, kb.apiKey, kb.ragId, unanswerable);
    expect(visitor.status).toBe(200);
    const usage = await usageOf(alice, kb.ragId);
    expect(usage.totals).toEqual({ queries: 1, cacheHits: 1, unanswered: 1, helpful: 0, unhelpful: 0 });
    expect(usage.unanswered.map((u) => u.question)).toEqual([unanswerable]);
  });
});

describe('a refusal in the Playground names the words no record uses', () => {
  let server: TestServer;
  let alice: Client;
  let kb: { ragId: string; apiKey: string };
  type Explained = Answer & { unknownWords?: string[] };
  const doneOf = (body: string) => parseSse(body).events.at(-1)?.data as unknown as Explained;

  beforeAll(async () => {
    server = await startTestServer({ MAX_KNOWLEDGE_BASES: '10' });
    alice = await signedInClient(server.baseUrl);
    kb = await faqKnowledgeBase(alice);
  });
  afterAll(() => server?.stop());

  it('in JSON and in the stream, fresh and from the cache; never to a visitor', async () => {
    const question = 'Do you repair horse saddles?';
    const fresh = await alice.post<Explained>(playground(kb.ragId), { query: question });
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(fresh.body).toMatchObject({ grounded: false, cached: false, unknownWords: ['repair', 'horse', 'saddles'] });
    // The same refusal from the answer cache, as JSON and as a stream.
    const again = await alice.post<Explained>(playground(kb.ragId), { query: question });
    expect(again.body).toMatchObject({ grounded: false, cached: true, unknownWords: ['repair', 'horse', 'saddles'] });
    const streamed = await alice.post<string>(playground(kb.ragId, true), { query: question });
    expect(streamed.status).toBe(200);
    expect(doneOf(streamed.body)).toMatchObject({ grounded: false, cached: true, unknownWords: ['repair', 'horse', 'saddles'] });
    // A fresh refusal in the stream.
    const other = await alice.post<string>(playground(kb.ragId, true), { query: 'Can I pay with bitcoin?' });
    expect(doneOf(other.body)).toMatchObject({ grounded: false, cached: false, unknownWords: ['pay', 'bitcoin'] });
    // A visitor asking the same gets the same refusal without them, from the same cache entry.
    for (const visitor of [await ask(server.baseUrl, kb.apiKey, kb.ragId, question), await ask(server.baseUrl, kb.apiKey, kb.ragId, 'Can I pay with bitcoin?')]) {
      expect(visitor.status).toBe(200);
      expect(visitor.body).toMatchObject({ grounded: false, cached: true });
      expect(visitor.body).not.toHaveProperty('unknownWords');
    }
    const visitorStream = await post<string>(server.baseUrl, '/api/v1/query/stream', { ragId: kb.ragId, query: question }, kb.apiKey);
    expect(doneOf(visitorStream.body)).not.toHaveProperty('unknownWords');
  });

  it('not beside an answer or small talk', async () => {
    for (const query of ['Where do orders ship from?', 'hi']) {
      const json = await alice.post<Explained>(playground(kb.ragId), { query });
      expect(json.status).toBe(200);
      expect(json.body, query).not.toHaveProperty('unknownWords');
      const stream = await alice.post<string>(playground(kb.ragId, true), { query });
      expect(doneOf(stream.body), query).not.toHaveProperty('unknownWords');
    }
  });

  it("follows the owner's synonyms at once", async () => {
    const question = 'Can I pay by instalments?';
    const before = await alice.post<Explained>(playground(kb.ragId), { query: question });
    expect(before.body).toMatchObject({ grounded: false, unknownWords: ['pay', 'instalments'] });
    const patched = await alice.patch(`/api/v1/knowledge-bases/${kb.ragId}`, { synonyms: [['instalments', 'gift cards']] });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const after = await alice.post<Explained>(playground(kb.ragId), { query: question });
    expect(after.status).toBe(200);
    expect(after.body.unknownWords ?? []).not.toContain('instalments');
  });
});

describe('errors and security', () => {
  let server: TestServer;
  let alice: Client;
  let bob: Client;
  let ragId: string;

  beforeAll(async () => {
    server = await startTestServer({ MAX_KNOWLEDGE_BASES: '10' });
    [alice, bob] = await Promise.all([signedInClient(server.baseUrl), signedInClient(server.baseUrl)]);
    ragId = await createKb(alice, 'Nordlicht Bikes');
    await uploadFile(alice, ragId, 'faq.md', faqMarkdown);
  });
  afterAll(() => server?.stop());

  it("another account's knowledge base, or none, is 404 (JSON and stream, session and bearer)", async () => {
    for (const stream of [false, true]) {
      expectProblem(await bob.post(playground(ragId, stream), { query: 'Where do orders ship from?' }), 404, 'not_found');
      expectProblem(await alice.post(playground('kb_doesnotexist', stream), { query: 'Where do orders ship from?' }), 404, 'not_found');
    }
    const agent = await agentClient(server.baseUrl);
    expectProblem(await agent.post(playground(ragId), { query: 'Where do orders ship from?' }), 404, 'not_found');
  });

  it('without authentication is 401, with or without a valid query key', async () => {
    const { apiKey } = (await alice.post<{ apiKey: string }>(`/api/v1/knowledge-bases/${ragId}/keys`, { allowedDomains: [] })).body;
    for (const stream of [false, true]) {
      expectProblem(await post(server.baseUrl, playground(ragId, stream), { query: 'Where do orders ship from?' }), 401, 'unauthorized');
      expectProblem(await post(server.baseUrl, playground(ragId, stream), { query: 'Where do orders ship from?' }, apiKey), 401, 'unauthorized');
    }
  });

  it('refuses a session request without the CSRF token, or with a wrong one (403 csrf_failed)', async () => {
    const noToken = new Client(server.baseUrl);
    noToken.cookie = alice.cookie;
    for (const stream of [false, true]) {
      expectProblem(await noToken.post(playground(ragId, stream), { query: 'Where do orders ship from?' }), 403, 'csrf_failed');
      expectProblem(await alice.post(playground(ragId, stream), { query: 'Where do orders ship from?' }, { 'x-csrf-token': 'wrong' }), 403, 'csrf_failed');
    }
  });

  it('validates the question like /api/v1/query (422 naming the location); ragId belongs in the path', async () => {
    const empty = expectProblem(await alice.post(playground(ragId), { query: '   ' }), 422, 'validation_failed');
    expect(JSON.stringify(empty.errors)).toContain('/body/query');
    const turns = expectProblem(
      await alice.post(playground(ragId, true), { query: 'And then?', conversation: [{ role: 'user', content: ' ' }] }),
      422,
      'validation_failed',
    );
    expect(JSON.stringify(turns.errors)).toContain('/body/conversation/0/content');
    expectProblem(await alice.post(playground(ragId), { ragId, query: 'Where do orders ship from?' }), 422, 'validation_failed');
  });
});

function limitSuite(backend: string, env: () => Record<string, string>): void {
  describe(`the Playground's own limits (${backend})`, () => {
    let minuteServer: TestServer;
    let dayServer: TestServer;

    beforeAll(async () => {
      [minuteServer, dayServer] = await Promise.all([
        startTestServer({ ...env(), MAX_KNOWLEDGE_BASES: '10', PLAYGROUND_QUERIES_PER_MINUTE: '3', PLAYGROUND_QUERIES_PER_DAY: '0', QUERY_QUOTA_PER_DAY: '5' }),
        startTestServer({ ...env(), PLAYGROUND_QUERIES_PER_MINUTE: '0', PLAYGROUND_QUERIES_PER_DAY: '2' }),
      ]);
    });
    afterAll(async () => {
      await Promise.all([minuteServer?.stop(), dayServer?.stop()]);
    });

    it('per account and minute: 6 parallel questions → 3 answered, 3 refused with 429 playground_minute; visitors unaffected', async () => {
      const owner = await signedInClient(minuteServer.baseUrl);
      const kb = await faqKnowledgeBase(owner);
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, i) => owner.post<Answer>(playground(kb.ragId, i % 2 === 1), { query: 'Where do orders ship from?' })),
      );
      const refused = responses.filter((r) => r.status === 429);
      expect(responses.filter((r) => r.status === 200)).toHaveLength(3);
      expect(refused).toHaveLength(3);
      for (const response of refused) {
        const body = expectProblem(response, 429, 'rate_limited');
        expect(body.limit).toBe('playground_minute');
        expect(body.detail).toMatch(/Playground allows 3 questions per minute/);
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(response.headers.get('ratelimit-policy')).toBe('"playground_minute";q=3;w=60');
        expect(response.headers.get('ratelimit')).toMatch(/^"playground_minute";r=0;t=\d+$/);
      }
      // The limit is the account's, across its knowledge bases; the visitors' quota is untouched.
      const other = await createKb(owner, 'Second shop');
      expectProblem(await owner.post(playground(other), { query: 'Anything?' }), 429, 'rate_limited');
      const visitor = await ask(minuteServer.baseUrl, kb.apiKey, kb.ragId, 'Where do orders ship from?');
      expect(visitor.status).toBe(200);
      expect(visitor.headers.get('ratelimit')).toMatch(/"day";r=4;t=\d+$/);
      // Another account has its own allowance.
      const someoneElse = await signedInClient(minuteServer.baseUrl);
      const theirs = await createKb(someoneElse, 'Their shop');
      expect((await someoneElse.post(playground(theirs), { query: 'Anything?' })).status).toBe(200);
    });

    it('per account and UTC day: the third question of the day → 429 playground_day', async () => {
      const owner = await signedInClient(dayServer.baseUrl);
      const kb = await createKb(owner);
      await uploadFile(owner, kb, 'faq.md', faqMarkdown);
      expect((await owner.post(playground(kb), { query: 'Where do orders ship from?' })).status).toBe(200);
      expect((await owner.post(playground(kb, true), { query: 'Where do orders ship from?' })).status).toBe(200);
      const refused = await owner.post(playground(kb, true), { query: 'Where do orders ship from?' });
      const body = expectProblem(refused, 429, 'rate_limited');
      expect(body.limit).toBe('playground_day');
      expect(body.detail).toMatch(/2 Playground questions for today/);
      expect(refused.headers.get('ratelimit-policy')).toBe('"playground_day";q=2;w=86400');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });
}

limitSuite('in process', () => ({}));
describeIf(redis, 'Playground limits on Redis', () => limitSuite('redis', () => ({ REDIS_URL: process.env.REDIS_URL as string })));
