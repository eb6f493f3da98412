/**
 * The LLM answerer against a local server speaking the chat-completions wire format: unsupported
 * sentences leave `done`, the conversation reaches the model as chat messages, the extractive
 * fallback answers the question in its conversation, and refusals are the owner's message or
 * the default in the question's language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatCompletionsClient } from '../../src/adapters/llm/chat-completions.js';
import { LlmAnswerer } from '../../src/knowledge/answering/llm-answerer.js';
import { NOT_FOUND_ANSWER, type RetrievedRecord, type Turn } from '../../src/knowledge/answering/types.js';
import type { AnswerEvent, AnswerInput } from '../../src/knowledge/query/answerer.js';
import { answerWith, type FakeLlm, startFakeLlm } from '../query/helpers.js';

const retrieved: RetrievedRecord[] = [
  { recordId: 'ship', sourceName: 'faq.md', title: 'Shipping', text: 'Orders ship from our warehouse in Bremen within 2 business days.', kind: 'passage', score: 3 },
  { recordId: 'ret', sourceName: 'faq.md', title: 'Returns', text: 'You can return any bike within 30 days of delivery for a full refund.', kind: 'passage', score: 2 },
];

let llm: FakeLlm;
let answerer: LlmAnswerer;

beforeAll(async () => {
  llm = await startFakeLlm();
  answerer = new LlmAnswerer(new ChatCompletionsClient({ baseUrl: llm.baseUrl, model: 'fake' }), 'fake', { firstTokenTimeoutMs: 2000, totalTimeoutMs: 5000 });
});
afterAll(async () => {
  await llm?.close();
});

async function run(input: Partial<AnswerInput> = {}) {
  const events: AnswerEvent[] = [];
  for await (const event of answerer.answer({ query: 'Where do orders ship from?', botName: 'Bikes', retrieved, signal: new AbortController().signal, ...input })) {
    events.push(event);
  }
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error('no done event');
  const streamed = events.map((e) => (e.type === 'token' ? e.text : '')).join('');
  return { done, streamed };
}

describe('sentences whose citations all dangle', () => {
  it('are dropped from done; the streamed text had them and done replaces it', async () => {
    llm.behaviour = answerWith(['Orders ship from Bremen [1]. ', 'Returns are free for 90 days [7]. ', 'Returns take 30 days [2, 9].']);
    const { done, streamed } = await run();
    expect(done).toMatchObject({ answer: 'Orders ship from Bremen [1]. Returns take 30 days [2].', grounded: true });
    expect(done.fallback).toBeUndefined();
    expect(streamed).toBe('Orders ship from Bremen [1]. Returns are free for 90 days. Returns take 30 days [2].');
  });

  it('leave the extractive answer (fallback) when only uncited sentences remain', async () => {
    llm.behaviour = answerWith(['Returns are free for 90 days [7]. ', 'Ask us any time.']);
    const { done } = await run();
    expect(done.fallback).toBe(true);
    expect(done.grounded).toBe(true);
    expect(done.answer).toContain('Orders ship from our warehouse in Bremen within 2 business days. [1]');
  });

  it('nothing is dropped from an answer whose citations resolve: done is the streamed text', async () => {
    llm.behaviour = answerWith(['Here is what I found. ', 'Orders ship from Bremen [1]', ' and returns are free [7].']);
    const { done, streamed } = await run();
    expect(done.answer).toBe('Here is what I found. Orders ship from Bremen [1] and returns are free.');
    expect(streamed).toBe(done.answer);
  });
});

describe('the conversation', () => {
  const conversation: Turn[] = [
    { role: 'user', content: 'Do you sell bikes?' },
    { role: 'assistant', content: 'Yes, we sell city and trekking bikes [1].' },
    { role: 'user', content: 'Can I return one?' },
    { role: 'assistant', content: 'You can return any bike within 30 days [2].' },
  ];

  it('reaches the model as chat messages between the system prompt and the question, oldest first', async () => {
    const before = llm.requests.length;
    llm.behaviour = answerWith(['Orders ship from Bremen [1].']);
    await run({ query: 'And where from?', conversation });
    const messages = llm.requests[before]?.body.messages ?? [];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'Do you sell bikes?' },
      // An earlier answer's markers numbered that answer's sources: not passed on.
      { role: 'assistant', content: 'Yes, we sell city and trekking bikes.' },
      { role: 'user', content: 'Can I return one?' },
      { role: 'assistant', content: 'You can return any bike within 30 days.' },
      { role: 'user', content: 'And where from?' },
    ]);
    // The passages are in the system message only.
    expect(messages[0]?.content).toContain('Orders ship from our warehouse in Bremen');
    for (const m of messages.slice(1)) expect(m.content).not.toContain('warehouse');
  });

  it('without one, the model gets the system prompt and the question only', async () => {
    const before = llm.requests.length;
    llm.behaviour = answerWith(['Orders ship from Bremen [1].']);
    await run();
    expect(llm.requests[before]?.body.messages?.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('the extractive fallback answers the question in its conversation', async () => {
    llm.behaviour = (_req, res) => {
      res.writeHead(500).end();
    };
    // Alone, "And what about that?" matches nothing; in context it is about shipping.
    const alone = await run({ query: 'And what about that?' });
    expect(alone.done.grounded).toBe(false);
    const inContext = await run({ query: 'And what about that?', conversation: [{ role: 'user', content: 'Where do orders ship from?' }] });
    expect(inContext.done.grounded).toBe(true);
    expect(inContext.done.answer).toContain('Bremen');
  });
});

describe('refusals', () => {
  it('the sentinel gives the owner’s fallback message when set', async () => {
    llm.behaviour = answerWith(['NOT_IN_KNOWLEDGE_BASE']);
    const { done, streamed } = await run({ fallbackMessage: 'Ask us at help@bikes.example' });
    expect(done).toMatchObject({ answer: 'Ask us at help@bikes.example', grounded: false, sources: [] });
    expect(streamed).toBe('Ask us at help@bikes.example');
  });

  it('nothing retrieved gives the owner’s message too, without asking the model', async () => {
    const before = llm.requests.length;
    const { done } = await run({ retrieved: [], fallbackMessage: 'Ask us at help@bikes.example' });
    expect(done).toMatchObject({ answer: 'Ask us at help@bikes.example', grounded: false });
    expect(llm.requests.length).toBe(before);
  });

  it('without a message, the default refusal follows the question’s language', async () => {
    llm.behaviour = answerWith(['NOT_IN_KNOWLEDGE_BASE']);
    expect((await run({ fallbackMessage: null })).done.answer).toBe(NOT_FOUND_ANSWER);
    const german = await run({ query: 'Wie lange dauert der Versand nach Österreich?', fallbackMessage: null });
    expect(german.done.answer).toBe('Dazu habe ich in der Wissensdatenbank nichts gefunden.');
  });

  it('a model failure whose extractive fallback abstains gives the owner’s message', async () => {
    llm.behaviour = (_req, res) => {
      res.writeHead(500).end();
    };
    const { done } = await run({ query: 'How do I bake sourdough bread?', fallbackMessage: 'Ask us at help@bikes.example' });
    expect(done).toMatchObject({ answer: 'Ask us at help@bikes.example', grounded: false, sources: [] });
  });
});
