/**
 * Follow-ups in the query client (src/sdk): `recentTurns` makes a session's
 * turns fit what the API accepts (the last 10, each trimmed and clipped to
 * 2,000 characters, citation markers dropped from answers), and `query` /
 * `streamQuery` send them as `conversation` — and send no `conversation` at
 * all for a first question.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxConversationTurns, maxTurnChars, query, type QueryTarget, recentTurns, type StreamEvent, streamQuery, type Turn } from '../../src/sdk/query-client.js';
import { faqKnowledgeBase } from '../query/helpers.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

describe('recentTurns', () => {
  it('keeps the most recent turns, oldest first', () => {
    const turns: Turn[] = Array.from({ length: 14 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i + 1}` }));
    const recent = recentTurns(turns);
    expect(recent).toHaveLength(maxConversationTurns);
    expect(recent[0]).toEqual({ role: 'user', content: 'turn 5' });
    expect(recent.at(-1)).toEqual({ role: 'assistant', content: 'turn 14' });
    expect(recentTurns([])).toEqual([]);
  });

  it('trims, clips to 2,000 characters without splitting a character, and leaves out empty turns', () => {
    const long = `  ${'a'.repeat(maxTurnChars + 500)}  `;
    expect(recentTurns([{ role: 'user', content: long }])[0]?.content).toBe('a'.repeat(maxTurnChars));
    const emoji = `${'a'.repeat(maxTurnChars - 1)}😀tail`;
    expect(recentTurns([{ role: 'user', content: emoji }])[0]?.content).toBe('a'.repeat(maxTurnChars - 1));
    expect(recentTurns([{ role: 'user', content: ' \n ' }, { role: 'assistant', content: '[1]' }, { role: 'user', content: 'hi' }])).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('drops citation markers from answers only', () => {
    expect(recentTurns([{ role: 'assistant', content: 'Orders ship from Bremen [1]. Returns within 30 days [2][3].' }])[0]?.content).toBe(
      'Orders ship from Bremen. Returns within 30 days.',
    );
    expect(recentTurns([{ role: 'user', content: 'What does [1] mean?' }])[0]?.content).toBe('What does [1] mean?');
  });
});

describe('query client with a conversation', () => {
  let server: TestServer;
  let target: QueryTarget;
  const bodies: Record<string, unknown>[] = [];

  beforeAll(async () => {
    server = await startServer({ QUERY_RATE_PER_MINUTE: '0', QUERY_QUOTA_PER_DAY: '0' });
    const { ragId, apiKey } = await faqKnowledgeBase(await signedInClient(server.baseUrl));
    const recording: typeof fetch = (url, init) => {
      bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      return fetch(url, init);
    };
    target = { baseUrl: server.baseUrl, ragId, apiKey, fetch: recording };
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('sends the turns with query and streamQuery, and none for a first question', async () => {
    const first = await query(target, 'Where do orders ship from?');
    expect(first.grounded).toBe(true);
    expect(bodies.at(-1)).toEqual({ ragId: target.ragId, query: 'Where do orders ship from?' });

    const conversation = recentTurns([
      { role: 'user', content: 'Where do orders ship from?' },
      { role: 'assistant', content: first.answer },
    ]);
    const second = await query(target, 'Do you sell gift cards?', undefined, { conversation });
    expect(second.grounded).toBe(true);
    expect(bodies.at(-1)).toEqual({ ragId: target.ragId, query: 'Do you sell gift cards?', conversation });

    const events: StreamEvent[] = [];
    for await (const event of streamQuery(target, 'Is there a warranty?', undefined, { conversation })) events.push(event);
    expect(events.at(-1)?.type).toBe('done');
    expect(bodies.at(-1)).toEqual({ ragId: target.ragId, query: 'Is there a warranty?', conversation });

    await query(target, 'Do you sell gift cards?', undefined, { conversation: [] });
    expect(bodies.at(-1)).toEqual({ ragId: target.ragId, query: 'Do you sell gift cards?' });
  });
});
