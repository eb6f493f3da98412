/**
 * Answers from an OpenAI-compatible model (product.md §5): a local server
 * speaks the chat-completions streaming wire format; the service must send
 * the retrieved passages, stream the model's tokens, remove citations that
 * resolve to nothing, honour the not-found sentinel, and fall back to the
 * extractive answer when the model fails, hangs, dies mid-answer or cites
 * nothing.
 */
import type http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Client, signedInClient, startServer, type TestServer } from '../support/server.js';
import {
  type Answer,
  answerWith,
  ask,
  askStream,
  citationNumbers,
  completionChunk,
  createKey,
  expectCitationsResolve,
  type FakeLlm,
  faqKnowledgeBase,
  faqMarkdown,
  finishCompletion,
  parseSse,
  post,
  readSse,
  type SseEvent,
  startCompletion,
  startFakeLlm,
  uploadFile,
  within,
} from './helpers.js';

const model = 'fake-model-7';
const llmKey = 'sk-test-groundwork-llm';
const question = 'Where do orders ship from?';
const notFoundPattern = /couldn.t find|could not find|not in the knowledge base/i;

let llm: FakeLlm;
let server: TestServer;
let alice: Client;
let faq: { ragId: string; apiKey: string };

beforeAll(async () => {
  llm = await startFakeLlm();
  server = await startServer({
    LLM_BASE_URL: llm.baseUrl,
    LLM_API_KEY: llmKey,
    LLM_MODEL: model,
    LLM_TIMEOUT_SECONDS: '1',
    QUERY_CACHE_TTL_SECONDS: '0',
    QUERY_RATE_PER_MINUTE: '0',
    QUERY_QUOTA_PER_DAY: '0',
  });
  alice = await signedInClient(server.baseUrl);
  faq = await faqKnowledgeBase(alice);
});
afterAll(async () => {
  await server?.stop();
  await llm?.close();
});
beforeEach(() => {
  llm.behaviour = answerWith(['Orders ship from Bremen [1].']);
});

/** Streams a question and returns the events by kind. */
async function streamed(query = question) {
  const result = await askStream(server.baseUrl, faq.apiKey, faq.ragId, query);
  expect(result.status).toBe(200);
  const tokens = result.events.filter((e) => e.event === 'token').map((e) => String(e.data.text));
  const done = result.events.at(-1) as SseEvent;
  expect(done.event).toBe('done');
  const sources = result.events.find((e) => e.event === 'sources')?.data.sources as unknown[];
  return { result, tokens, done: done.data as { answer: string; sources: unknown[]; grounded: boolean; cached: boolean; fallback?: boolean }, sources };
}

function expectNoDangling(answer: string, sourceCount: number): void {
  for (const n of citationNumbers(answer)) {
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(sourceCount);
  }
}

/** The extractive answer to `question`, which every fallback must give. */
function expectExtractive(body: { answer: string; sources: unknown[]; grounded: boolean }): void {
  expect(body.grounded).toBe(true);
  expect(body.answer).toContain('Orders ship from our warehouse in Bremen within 2 business days.');
  expectCitationsResolve(body as { answer: string; sources: unknown[] });
}

describe('the request to the model', () => {
  it('is a streamed chat completion with the model, the key and the retrieved passages', async () => {
    const before = llm.requests.length;
    llm.behaviour = answerWith(['Orders ship ', 'from our warehouse ', 'in Bremen ', '[1].']);
    const { tokens, done, sources } = await streamed();
    expect(llm.requests.length).toBe(before + 1);
    const request = llm.requests[before];
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${llmKey}`);
    expect(request?.headers['content-type']).toMatch(/^application\/json/);
    expect(request?.body.stream).toBe(true);
    expect(request?.body.model).toBe(model);
    const messages = request?.body.messages ?? [];
    const system = messages.find((m) => m.role === 'system');
    expect(system?.content).toContain('Orders ship from our warehouse in Bremen within 2 business days.');
    expect(system?.content).toContain('[1]');
    expect(messages.at(-1)).toEqual({ role: 'user', content: question });

    // The model's words arrive as token events and make up the answer.
    expect(tokens.length).toBeGreaterThan(1);
    expect(tokens.join('')).toBe('Orders ship from our warehouse in Bremen [1].');
    expect(done.answer).toBe('Orders ship from our warehouse in Bremen [1].');
    expect(done.grounded).toBe(true);
    expect(done.fallback).toBeUndefined();
    expect(done.sources).toEqual(sources);
    expect(sources.length).toBeGreaterThan(0);
    expect(JSON.stringify(sources)).toContain('Bremen');
  });

  it('streams each token as the model writes it', async () => {
    // The model writes its second token only after the client has seen the first.
    let release: () => void = () => {};
    const seenFirst = new Promise<void>((resolve) => {
      release = resolve;
    });
    llm.behaviour = async (_req, res) => {
      startCompletion(res);
      res.write(completionChunk('Orders ship from Bremen '));
      await within(seenFirst, 10_000, 'the first token never reached the client').catch(() => undefined);
      res.write(completionChunk('[1].'));
      finishCompletion(res);
    };
    const response = await fetch(`${server.baseUrl}/api/v1/query/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': faq.apiKey },
      body: JSON.stringify({ ragId: faq.ragId, query: question }),
    });
    const { events } = await readSse(response, (event) => {
      if (event.event === 'token') release();
    });
    const tokens = events.filter((e) => e.event === 'token').map((e) => e.data.text);
    // The trailing space waits for what follows it (it may precede a marker to remove).
    expect(tokens[0]).toBe('Orders ship from Bremen');
    expect(tokens.join('')).toBe('Orders ship from Bremen [1].');
    expect(events.at(-1)?.data.answer).toBe('Orders ship from Bremen [1].');
  });

  it('the JSON endpoint gives the model’s answer too', async () => {
    llm.behaviour = answerWith(['Orders ship from ', 'Bremen [1].']);
    const response = await ask(server.baseUrl, faq.apiKey, faq.ragId, question);
    expect(response.status).toBe(200);
    expect(response.body.answer).toBe('Orders ship from Bremen [1].');
    expect(response.body.grounded).toBe(true);
    expectNoDangling(response.body.answer, response.body.sources.length);
  });

  it('is not made when retrieval finds nothing', async () => {
    const before = llm.requests.length;
    const response = await ask(server.baseUrl, faq.apiKey, faq.ragId, 'How do I bake sourdough bread?');
    expect(response.body.grounded).toBe(false);
    expect(response.body.sources).toEqual([]);
    expect(response.body.answer).toMatch(notFoundPattern);
    expect(llm.requests.length).toBe(before);
  });
});

describe('citations', () => {
  it('removes markers that point at no source, while streaming and in done', async () => {
    llm.behaviour = answerWith(['Orders ship from Bremen [1]', ' and returns', ' are free [7].', ' Ask us [', '99] any time [1, 12].']);
    const { tokens, done, sources } = await streamed();
    expect(done.grounded).toBe(true);
    expect(done.fallback).toBeUndefined();
    expect(sources.length).toBeLessThan(7);
    expect(tokens.join('')).toBe(done.answer);
    for (const text of [tokens.join(''), done.answer]) {
      expect(text).not.toContain('[7]');
      expect(text).not.toContain('99');
      expect(text).not.toContain('12');
      expectNoDangling(text, sources.length);
    }
    expect(done.answer).toBe('Orders ship from Bremen [1] and returns are free. Ask us any time [1].');
  });

  it('drops a sentence whose citations all point at no source from done (the streamed tokens had it)', async () => {
    llm.behaviour = answerWith(['Orders ship from Bremen [1]. ', 'Returns are free for 90 days [7]. ', 'Ask us any time.']);
    const { tokens, done } = await streamed();
    expect(done.answer).toBe('Orders ship from Bremen [1]. Ask us any time.');
    expect(done.grounded).toBe(true);
    expect(done.fallback).toBeUndefined();
    // Clients replace the streamed text with done.answer (widget, Playground, A2A).
    expect(tokens.join('')).toBe('Orders ship from Bremen [1]. Returns are free for 90 days. Ask us any time.');

    const json = await ask(server.baseUrl, faq.apiKey, faq.ragId, question);
    expect(json.body.answer).toBe('Orders ship from Bremen [1]. Ask us any time.');
    expect(json.body.fallback).toBeUndefined();
  });

  it('an answer that cites nothing is replaced by the extractive answer (fallback)', async () => {
    llm.behaviour = answerWith(['Orders ship ', 'from Bremen.']);
    const { done } = await streamed();
    expect(done.fallback).toBe(true);
    expectExtractive(done);

    const json = await ask(server.baseUrl, faq.apiKey, faq.ragId, question);
    expectExtractive(json.body);
    expect(json.body.fallback).toBe(true);
  });

  it('an answer whose only citations dangle is replaced too', async () => {
    llm.behaviour = answerWith(['Orders ship from Bremen [8].']);
    const { done } = await streamed();
    expect(done.fallback).toBe(true);
    expectExtractive(done);
  });

  it('an answer left with only uncited sentences once the dangling ones are dropped is replaced too', async () => {
    llm.behaviour = answerWith(['Orders ship from Hamburg [8]. ', 'They arrive in a day.']);
    const { done } = await streamed();
    expect(done.fallback).toBe(true);
    expectExtractive(done);
  });
});

describe('the not-found sentinel', () => {
  it.each([[['NOT_IN_KNOWLEDGE_BASE']], [['NOT_IN_', 'KNOWLEDGE', '_BASE']], [['  NOT_IN_KNOWLEDGE_BASE\n']], [['NOT_IN_KNOWLEDGE_BASE', '.']]])(
    '%j → grounded false, and the sentinel is never shown',
    async (chunks) => {
      llm.behaviour = answerWith(chunks);
      const { tokens, done, sources } = await streamed();
      expect(done.grounded).toBe(false);
      expect(done.sources).toEqual([]);
      expect(sources).toEqual([]);
      expect(done.answer).toMatch(notFoundPattern);
      expect(tokens.join('')).toBe(done.answer);
      expect(tokens.join('')).not.toContain('NOT_IN');
    },
  );
});

describe('model failures fall back to the extractive answer', () => {
  it('a 500 from the model', async () => {
    llm.behaviour = (_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"boom","type":"server_error"}}');
    };
    const before = llm.requests.length;
    const json = await ask(server.baseUrl, faq.apiKey, faq.ragId, question);
    expect(llm.requests.length).toBe(before + 1);
    expect(json.status).toBe(200);
    expectExtractive(json.body);
    const { tokens, done } = await streamed();
    expectExtractive(done);
    expect(tokens.join('')).toBe(done.answer);
  });

  it('a 401 or 429 from the model', async () => {
    for (const status of [401, 429]) {
      llm.behaviour = (_req, res) => {
        res.writeHead(status, { 'content-type': 'application/json' }).end('{"error":{"message":"nope"}}');
      };
      expectExtractive((await ask(server.baseUrl, faq.apiKey, faq.ragId, question)).body);
    }
  });

  it('a model that never answers (beyond LLM_TIMEOUT_SECONDS)', async () => {
    llm.behaviour = () => {
      // Never responds; the service must give up and abort the request.
    };
    const before = llm.requests.length;
    const { tokens, done } = await streamed();
    expectExtractive(done);
    expect(tokens.join('')).toBe(done.answer);
    const { aborted } = await within(llm.requests[before]?.closed as Promise<{ aborted: boolean }>, 10_000, 'the hung model request was never aborted');
    expect(aborted).toBe(true);
  });

  it('a model that sends headers, then nothing', async () => {
    llm.behaviour = (_req, res) => startCompletion(res);
    const json = await ask(server.baseUrl, faq.apiKey, faq.ragId, question);
    expect(json.status).toBe(200);
    expectExtractive(json.body);
  });

  it('a model that dies mid-answer: done carries the extractive answer with fallback: true', async () => {
    let kill: () => void = () => {};
    const killed = new Promise<void>((resolve) => {
      kill = resolve;
    });
    llm.behaviour = async (req: http.IncomingMessage, res) => {
      startCompletion(res);
      res.write(completionChunk('Orders ship '));
      res.write(completionChunk('from Hamburg '));
      await within(killed, 10_000, 'no token reached the client').catch(() => undefined);
      req.socket.destroy();
    };
    const response = await fetch(`${server.baseUrl}/api/v1/query/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': faq.apiKey },
      body: JSON.stringify({ ragId: faq.ragId, query: question }),
    });
    const { events } = await readSse(response, (event) => {
      if (event.event === 'token') kill();
    });
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('meta');
    expect(names.at(-1)).toBe('done');
    expect(names).not.toContain('error');
    const done = events.at(-1)?.data as { answer: string; sources: unknown[]; grounded: boolean; fallback?: boolean };
    expect(done.fallback).toBe(true);
    expectExtractive(done);
    // The streamed tokens were the model's; done replaces them.
    const streamedText = events.filter((e) => e.event === 'token').map((e) => e.data.text).join('');
    expect(streamedText.startsWith('Orders ship ')).toBe(true);
    expect(streamedText).not.toBe(done.answer);
  });

  it('an error chunk mid-stream', async () => {
    llm.behaviour = (_req, res) => {
      startCompletion(res);
      res.write(completionChunk('Orders ship '));
      res.end(`data: ${JSON.stringify({ error: { message: 'overloaded' } })}\n\n`);
    };
    const { done } = await streamed();
    expect(done.fallback).toBe(true);
    expectExtractive(done);
  });

  it('a stream that ends without [DONE]', async () => {
    llm.behaviour = (_req, res) => {
      startCompletion(res);
      res.end(completionChunk('Orders ship from Bremen [1].'));
    };
    const { done } = await streamed();
    expect(done.fallback).toBe(true);
    expectExtractive(done);
  });

  it('the JSON endpoint says fallback: true when the model dies mid-answer', async () => {
    llm.behaviour = (req: http.IncomingMessage, res) => {
      startCompletion(res);
      res.write(completionChunk('Orders ship '));
      setTimeout(() => req.socket.destroy(), 20);
    };
    const json = await ask(server.baseUrl, faq.apiKey, faq.ragId, question);
    expect(json.status).toBe(200);
    expect(json.body.fallback).toBe(true);
    expectExtractive(json.body);
  });

  it('the service keeps answering after failures', async () => {
    llm.behaviour = answerWith(['Orders ship from Bremen [1].']);
    const { done } = await streamed();
    expect(done.answer).toBe('Orders ship from Bremen [1].');
    expect(done.fallback).toBeUndefined();
    const json = await ask(server.baseUrl, faq.apiKey, faq.ragId, question);
    expect(json.body.answer).toBe('Orders ship from Bremen [1].');
    expect('fallback' in json.body).toBe(false);
  });
});

describe('the conversation', () => {
  it('reaches the model as earlier chat turns, in order, before the question', async () => {
    const before = llm.requests.length;
    llm.behaviour = answerWith(['Orders ship from Bremen [1].']);
    const conversation = [
      { role: 'user', content: 'Can I return a bike?' },
      { role: 'assistant', content: 'You can return any bike within 30 days of delivery [1].' },
      { role: 'user', content: 'Is there a warranty?' },
      { role: 'assistant', content: 'Every frame carries a lifetime warranty [1].' },
    ];
    const response = await post<Answer>(server.baseUrl, '/api/v1/query', { ragId: faq.ragId, query: question, conversation }, faq.apiKey);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.answer).toBe('Orders ship from Bremen [1].');
    const messages = llm.requests[before]?.body.messages ?? [];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(messages.slice(1).map((m) => m.content)).toEqual([
      'Can I return a bike?',
      'You can return any bike within 30 days of delivery.',
      'Is there a warranty?',
      'Every frame carries a lifetime warranty.',
      question,
    ]);
  });
});

describe('the owner’s fallback message', () => {
  it('replaces the default refusal when the model finds no answer', async () => {
    const created = await alice.post<{ ragId: string }>('/api/v1/knowledge-bases', { botName: 'Refusing bikes', fallbackMessage: 'Ask us at help@bikes.example' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const ragId = created.body.ragId;
    await uploadFile(alice, ragId, 'faq.md', faqMarkdown);
    const { apiKey } = await createKey(alice, ragId);
    llm.behaviour = answerWith(['NOT_IN_KNOWLEDGE_BASE']);
    const json = await ask(server.baseUrl, apiKey, ragId, question);
    expect(json.body).toMatchObject({ answer: 'Ask us at help@bikes.example', grounded: false, sources: [] });
    const stream = await askStream(server.baseUrl, apiKey, ragId, question);
    expect(stream.events.at(-1)?.data).toMatchObject({ answer: 'Ask us at help@bikes.example', grounded: false });
  });
});

describe("the owner's Playground", () => {
  it("names the words no record uses beside the model's refusal, in JSON and in the stream; a visitor gets none", async () => {
    llm.behaviour = answerWith(['NOT_IN_KNOWLEDGE_BASE']);
    const query = 'Do you repair horse saddles?';
    const path = `/api/v1/knowledge-bases/${faq.ragId}/playground/query`;
    const json = await alice.post<Answer & { unknownWords?: string[] }>(path, { query });
    expect(json.status, JSON.stringify(json.body)).toBe(200);
    expect(json.body).toMatchObject({ grounded: false, unknownWords: ['repair', 'horse', 'saddles'] });
    const stream = await alice.post<string>(`${path}/stream`, { query });
    expect(stream.status).toBe(200);
    const done = parseSse(stream.body).events.at(-1);
    expect(done?.event).toBe('done');
    expect(done?.data).toMatchObject({ grounded: false, unknownWords: ['repair', 'horse', 'saddles'] });
    // The model's answer is no refusal: nothing beside it.
    llm.behaviour = answerWith(['Orders ship from Bremen [1].']);
    expect((await alice.post(path, { query: question })).body).not.toHaveProperty('unknownWords');
    llm.behaviour = answerWith(['NOT_IN_KNOWLEDGE_BASE']);
    const visitor = await ask(server.baseUrl, faq.apiKey, faq.ragId, query);
    expect(visitor.body).toMatchObject({ grounded: false });
    expect(visitor.body).not.toHaveProperty('unknownWords');
    const visitorStream = await streamed(query);
    expect(visitorStream.done).not.toHaveProperty('unknownWords');
  });
});
