/**
 * Small talk over the query API: "hi", "Danke!" or "are you a bot?" get a short reply in their
 * language with `smallTalk: true`, `grounded: false` and no sources, over JSON and the stream;
 * it is not listed as an unanswered question, and a model answerer is not asked. A message with
 * a question in it is answered from the records as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_TALK } from '../../src/knowledge/language/small-talk-phrases.js';
import { type Client, signedInClient, startServer, type TestServer } from '../support/server.js';
import { type Answer, faqKnowledgeBase, faqOnFakeLlm, parseSse, post } from './helpers.js';

const replies = { en: SMALL_TALK.en?.replies, de: SMALL_TALK.de?.replies };

describe('small talk over the query API (built-in answerer)', () => {
  let server: TestServer;
  let alice: Client;
  let faq: { ragId: string; apiKey: string };

  beforeAll(async () => {
    server = await startServer({ QUERY_RATE_PER_MINUTE: '0', QUERY_QUOTA_PER_DAY: '0' });
    alice = await signedInClient(server.baseUrl);
    faq = await faqKnowledgeBase(alice);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const ask = (query: string, conversation?: unknown) => post<Answer>(server.baseUrl, '/api/v1/query', { ragId: faq.ragId, query, ...(conversation ? { conversation } : {}) }, faq.apiKey);

  it('JSON: a greeting gets a greeting, citing nothing', async () => {
    const response = await ask('Hi there!');
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ answer: replies.en?.greeting, sources: [], grounded: false, cached: false, smallTalk: true });
  });

  it('JSON: "are you a bot?" is answered with the bot’s name', async () => {
    const response = await ask('are you a bot?');
    expect(response.body.answer).toMatch(/^I'm Nordlicht Bikes, an automated assistant/);
    expect(response.body.smallTalk).toBe(true);
  });

  it('stream: thanks in German get a German reply, as sources, token and done', async () => {
    const response = await post<string>(server.baseUrl, '/api/v1/query/stream', { ragId: faq.ragId, query: 'Vielen Dank!' }, faq.apiKey);
    expect(response.status).toBe(200);
    const events = parseSse(response.body).events;
    expect(events.map((e) => e.event)).toEqual(['meta', 'sources', 'token', 'done']);
    expect(events[1]?.data).toEqual({ sources: [] });
    expect(events[2]?.data).toEqual({ text: replies.de?.thanks });
    expect(events[3]?.data).toMatchObject({ answer: replies.de?.thanks, sources: [], grounded: false, smallTalk: true });
  });

  it('a message with a question in it is answered from the records', async () => {
    const response = await ask('Thanks! And where do orders ship from?');
    expect(response.body.grounded).toBe(true);
    expect(response.body.smallTalk).toBeUndefined();
    expect(response.body.answer).toMatch(/Bremen/);
  });

  it('after "thanks", a follow-up still leans on the question before it', async () => {
    const conversation = [
      { role: 'user', content: 'Do you sell gift cards?' },
      { role: 'assistant', content: 'Gift cards are available in amounts from 25 to 500 euros. [1]' },
      { role: 'user', content: 'thanks' },
      { role: 'assistant', content: replies.en?.thanks },
    ];
    const response = await ask('And up to what amount?', conversation);
    expect(response.body.grounded, response.body.answer).toBe(true);
    expect(response.body.answer).toMatch(/500 euros/);
  });

  it('counts as a query, not as an unanswered question', async () => {
    const own = await faqKnowledgeBase(alice);
    for (const query of ['hello', 'ok', 'bye', 'Do you sell zebras?']) {
      const response = await post<Answer>(server.baseUrl, '/api/v1/query', { ragId: own.ragId, query }, own.apiKey);
      expect(response.status).toBe(200);
    }
    const usage = await alice.get<{ totals: { queries: number; unanswered: number }; unanswered: { question: string }[] }>(`/api/v1/knowledge-bases/${own.ragId}/usage`);
    expect(usage.body.totals).toMatchObject({ queries: 4, unanswered: 1 });
    expect(usage.body.unanswered.map((u) => u.question)).toEqual(['Do you sell zebras?']);
  });
});

describe('small talk with a model answerer', () => {
  let setup: Awaited<ReturnType<typeof faqOnFakeLlm>> | undefined;

  beforeAll(async () => {
    setup = await faqOnFakeLlm(['Orders ship from Bremen [1].']);
  });
  afterAll(async () => {
    await setup?.stop();
  });

  it('the model is not asked, over JSON and the stream', async () => {
    const { llm, server, faq } = setup as NonNullable<typeof setup>;
    const json = await post<Answer>(server.baseUrl, '/api/v1/query', { ragId: faq.ragId, query: 'hello' }, faq.apiKey);
    expect(json.body).toMatchObject({ answer: replies.en?.greeting, grounded: false, smallTalk: true });
    const stream = await post<string>(server.baseUrl, '/api/v1/query/stream', { ragId: faq.ragId, query: 'thank you!' }, faq.apiKey);
    expect(parseSse(stream.body).events.at(-1)?.data).toMatchObject({ answer: replies.en?.thanks, smallTalk: true });
    expect(llm.requests).toHaveLength(0);

    const asked = await post<Answer>(server.baseUrl, '/api/v1/query', { ragId: faq.ragId, query: 'Where do orders ship from?' }, faq.apiKey);
    expect(asked.body.answer).toMatch(/Bremen/);
    expect(llm.requests).toHaveLength(1);
  });
});
