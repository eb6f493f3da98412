/**
 * The SSE answer stream (product.md §5): headers, event order and ids,
 * tokens that add up to the answer, problem responses before the stream
 * starts, heartbeat comments on a slow answer, and a client disconnect that
 * stops the work (seen by the model server as an aborted request).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../api/helpers.js';
import { type Client, signedInClient, startServer, type TestServer } from '../support/server.js';
import {
  answerWith,
  ask,
  askStream,
  completionChunk,
  type FakeLlm,
  faqKnowledgeBase,
  rawPost,
  readSse,
  type SseEvent,
  type StreamResult,
  startCompletion,
  sleep,
  startFakeLlm,
  within,
} from './helpers.js';

let server: TestServer;
let alice: Client;
let faq: { ragId: string; apiKey: string };

const ratePerMinute = 3;

beforeAll(async () => {
  server = await startServer({ MAX_KNOWLEDGE_BASES: '30', QUERY_RATE_PER_MINUTE: String(ratePerMinute), QUERY_QUOTA_PER_DAY: '0' });
  alice = await signedInClient(server.baseUrl);
  faq = await faqKnowledgeBase(alice, ['shop.example.com']);
});
afterAll(() => server?.stop());

/** Asserts the shape of a complete answer stream and returns its parts. */
function expectWellFormed(result: StreamResult): { meta: SseEvent; sources: SseEvent; tokens: SseEvent[]; done: SseEvent } {
  expect(result.status).toBe(200);
  const names = result.events.map((e) => e.event);
  expect(names[0]).toBe('meta');
  expect(names[1]).toBe('sources');
  expect(names.at(-1)).toBe('done');
  expect(names.slice(2, -1).every((n) => n === 'token')).toBe(true);
  expect(names.length).toBeGreaterThanOrEqual(4);
  // Every event has an id, increasing.
  const ids = result.events.map((e) => Number(e.id));
  for (const id of ids) expect(Number.isInteger(id)).toBe(true);
  for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1] as number);
  const [meta, sources] = result.events as [SseEvent, SseEvent];
  const done = result.events.at(-1) as SseEvent;
  const tokens = result.events.slice(2, -1);
  expect(Object.keys(meta.data).sort()).toEqual(['cached', 'requestId']);
  expect(meta.data.requestId).toBe(result.headers.get('x-request-id'));
  expect(Object.keys(sources.data)).toEqual(['sources']);
  for (const token of tokens) expect(typeof token.data.text).toBe('string');
  for (const key of ['answer', 'sources', 'grounded', 'cached']) expect(done.data).toHaveProperty(key);
  expect(tokens.map((t) => t.data.text).join('')).toBe(done.data.answer);
  expect(done.data.sources).toEqual(sources.data.sources);
  expect(done.data.cached).toBe(meta.data.cached);
  return { meta, sources, tokens, done };
}

describe('the stream', () => {
  it('sends SSE headers, never compressed', async () => {
    const result = await askStream(server.baseUrl, faq.apiKey, faq.ragId, 'Do you sell gift cards?', { 'accept-encoding': 'gzip, deflate, br' });
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(result.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(result.headers.get('x-accel-buffering')).toBe('no');
    expect(result.headers.get('content-encoding')).toBeNull();
    expect(result.headers.get('x-request-id')).toBeTruthy();
    // Limits are reported on the stream's response too.
    expect(result.headers.get('ratelimit-policy')).toContain(`"minute";q=${ratePerMinute}`);
    expect(result.headers.get('ratelimit')).toMatch(/"minute";r=\d+;t=\d+/);
    expect(result.raw.startsWith('id: 1\n') || result.raw.startsWith('id:1\n')).toBe(true);
  });

  it('sends meta first, then sources, tokens and done; tokens add up to the answer', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice);
    const result = await askStream(server.baseUrl, apiKey, ragId, 'Where do orders ship from?');
    const { meta, sources, tokens, done } = expectWellFormed(result);
    expect(meta.data.cached).toBe(false);
    // The built-in answerer knows its whole answer at once: one token, as from the cache.
    expect(tokens.map((t) => t.data.text)).toEqual([done.data.answer]);
    expect(done.data.grounded).toBe(true);
    expect(done.data.answer).toContain('Bremen');
    const cited = [...String(done.data.answer).matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(cited.length).toBeGreaterThan(0);
    for (const n of cited) expect(n).toBeLessThanOrEqual((sources.data.sources as unknown[]).length);
    // The same answer as the JSON endpoint gives (served from the cache there).
    const json = await ask(server.baseUrl, apiKey, ragId, 'Where do orders ship from?');
    expect(json.body.answer).toBe(done.data.answer);
    expect(json.body.sources).toEqual(done.data.sources);
    expect(json.body.cached).toBe(true);
  });

  it('a repeated question streams from the cache with the same events', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice);
    const first = expectWellFormed(await askStream(server.baseUrl, apiKey, ragId, 'Is there a warranty on the frame?'));
    const second = expectWellFormed(await askStream(server.baseUrl, apiKey, ragId, 'is there a warranty on the frame'));
    expect(first.done.data.cached).toBe(false);
    expect(second.meta.data.cached).toBe(true);
    expect(second.done.data.cached).toBe(true);
    expect(second.done.data.answer).toBe(first.done.data.answer);
    expect(second.done.data.sources).toEqual(first.done.data.sources);
  });

  it('an unanswerable question streams the plain not-found answer', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice);
    const { sources, done } = expectWellFormed(await askStream(server.baseUrl, apiKey, ragId, 'What is the capital of Australia?'));
    expect(sources.data.sources).toEqual([]);
    expect(done.data.grounded).toBe(false);
    expect(done.data.answer).toMatch(/couldn.t find|could not find|not in the knowledge base/i);
  });
});

describe('errors before the stream starts are ordinary problem responses', () => {
  const expectNotSse = (result: StreamResult, status: number, code: string) => {
    expect(result.status).toBe(status);
    expect(result.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(result.events).toEqual([]);
    expect(result.body).toMatchObject({ status, code });
  };

  it('bad key, wrong knowledge base, refused origin, invalid query', async () => {
    expectNotSse(await askStream(server.baseUrl, 'gw_live_nope', faq.ragId, 'Where do orders ship from?'), 401, 'unauthorized');
    expectNotSse(await askStream(server.baseUrl, undefined, faq.ragId, 'Where do orders ship from?'), 401, 'unauthorized');
    expectNotSse(await askStream(server.baseUrl, faq.apiKey, 'kb_missing', 'Where do orders ship from?'), 401, 'unauthorized');
    expectNotSse(await askStream(server.baseUrl, faq.apiKey, faq.ragId, 'Where do orders ship from?', { origin: 'https://evil.test' }), 403, 'origin_not_allowed');
    expectNotSse(await askStream(server.baseUrl, faq.apiKey, faq.ragId, '   '), 422, 'validation_failed');
    expectNotSse(await askStream(server.baseUrl, faq.apiKey, faq.ragId, 'x'.repeat(4001)), 422, 'validation_failed');
  });

  it('a limit refusal is a 429 problem with Retry-After, not a stream', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice);
    for (let i = 0; i < ratePerMinute; i++) expect((await askStream(server.baseUrl, apiKey, ragId, `Where do orders ship from? ${i}`)).status).toBe(200);
    const refused = await askStream(server.baseUrl, apiKey, ragId, 'Where do orders ship from?');
    expectNotSse(refused, 429, 'rate_limited');
    expect(refused.body).toMatchObject({ limit: 'minute' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit')).toContain('"minute";r=0');
    // The same refusal through the JSON endpoint.
    expectProblem(await ask(server.baseUrl, apiKey, ragId, 'Where do orders ship from?'), 429, 'rate_limited');
  });
});

describe('with a slow model', () => {
  let llm: FakeLlm;
  let slow: TestServer;
  let kb: { ragId: string; apiKey: string };

  beforeAll(async () => {
    llm = await startFakeLlm();
    slow = await startServer({
      LLM_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'fake-model',
      SSE_HEARTBEAT_SECONDS: '1',
      QUERY_CACHE_TTL_SECONDS: '0',
      QUERY_RATE_PER_MINUTE: '0',
      QUERY_QUOTA_PER_DAY: '0',
    });
    kb = await faqKnowledgeBase(await signedInClient(slow.baseUrl));
  });
  afterAll(async () => {
    await slow?.stop();
    await llm?.close();
  });

  it('sends meta before the model answers, and `: ping` comments while it thinks', async () => {
    let modelStarted = false;
    // The model thinks for 2.5 s (heartbeats every 1 s) before its first token.
    llm.behaviour = async (req, res, request) => {
      await sleep(2500);
      modelStarted = true;
      await answerWith(['Orders ship ', 'from Bremen ', '[1].'])(req, res, request);
    };
    let metaBeforeModel: boolean | undefined;
    const response = await fetch(`${slow.baseUrl}/api/v1/query/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': kb.apiKey },
      body: JSON.stringify({ ragId: kb.ragId, query: 'Where do orders ship from?' }),
    });
    expect(response.status).toBe(200);
    const { raw, events } = await readSse(response, (event) => {
      if (event.event === 'meta') metaBeforeModel = !modelStarted;
    });
    expect(metaBeforeModel).toBe(true);
    expect(raw).toContain(': ping\n\n');
    // Heartbeats come after meta, while waiting for the model; the stream then completes.
    expect(raw.indexOf(': ping')).toBeGreaterThan(raw.indexOf('event: meta'));
    expect(raw.indexOf(': ping')).toBeLessThan(raw.indexOf('event: token'));
    const done = events.at(-1);
    expect(done?.event).toBe('done');
    expect(done?.data.answer).toBe('Orders ship from Bremen [1].');
    expect(done?.data.grounded).toBe(true);
  });

  it('a client that disconnects stops the work: the model request is aborted', async () => {
    // The model sends one token, then would go on for a long time.
    llm.behaviour = async (_req, res) => {
      startCompletion(res);
      res.write(completionChunk('Orders ship '));
    };
    const before = llm.requests.length;
    const call = rawPost(slow.baseUrl, '/api/v1/query/stream', { ragId: kb.ragId, query: 'Where do orders ship from?' }, { 'x-api-key': kb.apiKey }, (event, request) => {
      if (event.event === 'token') request.destroy();
    });
    await within(new Promise((resolve) => call.request.once('close', resolve)), 10_000, 'no token arrived');
    expect(call.events.map((e) => e.event)).toEqual(['meta', 'sources', 'token']);
    const request = llm.requests[before];
    expect(request).toBeDefined();
    const { aborted } = await within(request?.closed as Promise<{ aborted: boolean }>, 10_000, 'the model request was not aborted after the client left');
    expect(aborted).toBe(true);
  });

  it('the JSON endpoint also stops the model when its client disconnects', async () => {
    llm.behaviour = async (_req, res) => {
      startCompletion(res);
      res.write(completionChunk('Orders ship '));
    };
    const before = llm.requests.length;
    const call = rawPost(slow.baseUrl, '/api/v1/query', { ragId: kb.ragId, query: 'Where do orders ship from?' }, { 'x-api-key': kb.apiKey });
    await within(
      (async () => {
        while (llm.requests.length === before) await sleep(10);
      })(),
      10_000,
      'the model was never called',
    );
    call.request.destroy();
    const request = llm.requests[before];
    const { aborted } = await within(request?.closed as Promise<{ aborted: boolean }>, 10_000, 'the model request was not aborted after the client left');
    expect(aborted).toBe(true);
  });
});
