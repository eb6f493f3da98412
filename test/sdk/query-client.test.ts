/**
 * The typed query client shared by the widget and the dashboard
 * (src/sdk/query-client.ts), against a real server: answers, streams,
 * search, widget settings, and every kind of refusal as a QueryError.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchWidgetConfig, query, QueryError, type QueryTarget, search, sendFeedback, type StreamEvent, streamQuery } from '../../src/sdk/query-client.js';
import { createKb, createKey, faqMarkdown, uploadFile } from '../query/helpers.js';
import { freePort, signedInClient, startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let target: QueryTarget;

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

async function refusal(promise: Promise<unknown>): Promise<QueryError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(QueryError);
  return error as QueryError;
}

const withOrigin = (origin: string): typeof fetch => (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), origin } });

beforeAll(async () => {
  server = await startServer({ QUERY_RATE_PER_MINUTE: '6' });
  const alice = await signedInClient(server.baseUrl);
  const ragId = await createKb(alice, 'Client Bot');
  await uploadFile(alice, ragId, 'faq.md', faqMarkdown);
  const { apiKey } = await createKey(alice, ragId, ['shop.example.com']);
  target = { baseUrl: `${server.baseUrl}/`, ragId, apiKey };
});

afterAll(async () => {
  await server?.stop();
});

describe('query client', () => {
  it('answers, streams and searches', async () => {
    const answer = await query(target, 'Where do orders ship from?');
    expect(answer.answer).toMatch(/Bremen.*\[1\]/);
    expect(answer.sources[0]?.sourceName).toBe('faq.md');

    const events = await collect(streamQuery(target, 'How long is the warranty?'));
    expect(events[0]?.type).toBe('meta');
    const done = events.at(-1);
    expect(done?.type).toBe('done');
    const tokens = events.filter((e): e is Extract<StreamEvent, { type: 'token' }> => e.type === 'token').map((e) => e.text);
    expect(tokens.join('')).toBe(done?.type === 'done' ? done.answer : '');
    expect(events.map((e) => Number(e.id))).toEqual(events.map((_, i) => i + 1));

    const hits = await search(target, 'returns refund', 2);
    expect(hits[0]?.passage).toMatch(/30 days/);
  });

  it('reads the widget settings without using queries', async () => {
    expect(await fetchWidgetConfig({ ...target, fetch: withOrigin('https://shop.example.com') })).toEqual({ botName: 'Client Bot', greeting: null, starterQuestions: [], fallbackMessage: null, theme: {}, allowed: true });
  });

  it("sends a visitor's feedback on an answer, naming its records, without using queries", async () => {
    const answer = await query(target, 'How long is the warranty?');
    await expect(sendFeedback({ ...target, fetch: withOrigin('https://shop.example.com') }, 'How long is the warranty?', false, answer.sources)).resolves.toBeUndefined();
    const elsewhere = await refusal(sendFeedback({ ...target, fetch: withOrigin('https://evil.test') }, 'How long is the warranty?', true));
    expect([elsewhere.status, elsewhere.code]).toEqual([403, 'origin_not_allowed']);
    const empty = await refusal(sendFeedback(target, '   ', true));
    expect([empty.status, empty.code]).toEqual([422, 'validation_failed']);
    // With the turns it was asked with; turns the server refuses come back as a 422 naming them.
    const turns = [{ role: 'user' as const, content: 'How long is the warranty?' }, { role: 'assistant' as const, content: answer.answer }];
    await expect(sendFeedback(target, 'And on the frame?', false, [], undefined, { conversation: turns })).resolves.toBeUndefined();
    const badTurn = await refusal(sendFeedback(target, 'And on the frame?', false, [], undefined, { conversation: [{ role: 'user', content: 'x'.repeat(2001) }] }));
    expect([badTurn.status, badTurn.code]).toEqual([422, 'validation_failed']);
  });

  it('turns refusals into QueryErrors with status, code and details', async () => {
    const badKey = await refusal(query({ ...target, apiKey: 'gw_live_notarealkeynotarealkeynotareal1' }, 'hi'));
    expect([badKey.status, badKey.code]).toEqual([401, 'unauthorized']);
    expect(badKey.details.requestId).toMatch(/./);

    const elsewhere = await refusal(fetchWidgetConfig({ ...target, fetch: withOrigin('https://evil.test') }));
    expect([elsewhere.status, elsewhere.code]).toEqual([403, 'origin_not_allowed']);
    const streamElsewhere = await refusal(collect(streamQuery({ ...target, fetch: withOrigin('https://evil.test') }, 'hi')));
    expect(streamElsewhere.status).toBe(403);

    const down = await refusal(query({ ...target, baseUrl: `http://127.0.0.1:${await freePort()}` }, 'hi'));
    expect([down.status, down.code]).toEqual([0, 'network_error']);

    const controller = new AbortController();
    controller.abort();
    const aborted = await refusal(query(target, 'hi', controller.signal));
    expect(aborted.code).toBe('aborted');

    // 6 a minute: use up what the other tests left, then the stream is refused before it starts.
    for (let i = 0; i < 6; i++) await query(target, 'Where do orders ship from?').catch(() => undefined);
    const limited = await refusal(collect(streamQuery(target, 'Where do orders ship from?')));
    expect([limited.status, limited.code, limited.details.limit]).toEqual([429, 'rate_limited', 'minute']);
    expect(limited.details.retryAfterMs).toBeGreaterThan(0);
  });

  it('yields an error event and ends; a stream cut short is a stream_incomplete error', async () => {
    const sse = (body: string): typeof fetch => async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    const failed = await collect(streamQuery({ ...target, fetch: sse('id: 1\nevent: meta\ndata: {"requestId":"r","cached":false}\n\nid: 2\nevent: error\ndata: {"code":"internal_error","message":"x"}\n\n') }, 'q'));
    expect(failed.map((e) => e.type)).toEqual(['meta', 'error']);

    const cut = await refusal(collect(streamQuery({ ...target, fetch: sse('id: 1\nevent: token\ndata: {"text":"half"}\n\n') }, 'q')));
    expect(cut.code).toBe('stream_incomplete');
  });

  it('reads Retry-After when a 429 body has no retryAfterMs', async () => {
    const limited: typeof fetch = async () => new Response('busy', { status: 429, headers: { 'retry-after': '7' } });
    const error = await refusal(query({ ...target, fetch: limited }, 'q'));
    expect([error.status, error.code, error.details.retryAfterMs]).toEqual([429, 'http_429', 7000]);
  });
});
