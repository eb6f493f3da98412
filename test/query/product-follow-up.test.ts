/**
 * A follow-up about a product, over HTTP as an API client sends it: the conversation carries the
 * answers as the API returned them (with their `[n]` markers). "and in the microwave?" after the
 * espresso cups is about the cups, which say nothing of a microwave: refused, in JSON and in the
 * stream, not answered with the glass tumblers' line. After the tumblers it is answered from them.
 * The rule itself: src/knowledge/answering/product-follow-up.ts (docs/decisions.md).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, startServer, type TestServer } from '../support/server.js';
import { type Answer, createKb, createKey, parseSse, post, uploadFile } from './helpers.js';

/** The evaluation's coffee catalogue (30 products, eval/sets/catalogue-en): the tumblers' "Microwave safe: no" is what retrieval finds for the microwave. */
const catalogue = readFileSync(new URL('../../eval/sets/catalogue-en/catalogue.json', import.meta.url), 'utf8');

describe('a follow-up about a product', () => {
  let server: TestServer;
  const kb = { ragId: '', apiKey: '' };

  beforeAll(async () => {
    server = await startServer({ QUERY_RATE_PER_MINUTE: '0', QUERY_QUOTA_PER_DAY: '0', MAX_RECORDS_PER_KB: '30' });
    const alice = await signedInClient(server.baseUrl);
    kb.ragId = await createKb(alice, 'Cups');
    await uploadFile(alice, kb.ragId, 'catalogue.json', catalogue);
    kb.apiKey = (await createKey(alice, kb.ragId)).apiKey;
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** The conversation after `question`, with the answer as the API returned it. */
  async function after(question: string): Promise<{ role: string; content: string }[]> {
    const first = await post<Answer>(server.baseUrl, '/api/v1/query', { ragId: kb.ragId, query: question }, kb.apiKey);
    expect(first.body.grounded, first.body.answer).toBe(true);
    return [
      { role: 'user', content: question },
      { role: 'assistant', content: first.body.answer },
    ];
  }

  it('stays on the product the last answer named: refused when that product does not say', async () => {
    const conversation = await after('Can the espresso cups go in the dishwasher?');
    expect(conversation[1]?.content).toMatch(/^Espresso Cups with Saucers/);
    const json = await post<Answer>(server.baseUrl, '/api/v1/query', { ragId: kb.ragId, query: 'and in the microwave?', conversation }, kb.apiKey);
    expect(json.status).toBe(200);
    expect(json.body, json.body.answer).toMatchObject({ grounded: false, sources: [] });
    const stream = await post<string>(server.baseUrl, '/api/v1/query/stream', { ragId: kb.ragId, query: 'and in the microwave? ', conversation }, kb.apiKey);
    const done = parseSse(stream.body).events.at(-1);
    expect(done?.event).toBe('done');
    expect(done?.data).toMatchObject({ grounded: false, sources: [] });
  });

  it('answers from the product the last answer named, or from the one the follow-up names instead', async () => {
    const tumblers = await after('Can the glass tumblers go in the dishwasher?');
    const microwave = await post<Answer>(server.baseUrl, '/api/v1/query', { ragId: kb.ragId, query: 'and in the microwave?', conversation: tumblers }, kb.apiKey);
    expect(microwave.body.grounded, microwave.body.answer).toBe(true);
    expect(microwave.body.answer).toContain('microwave safe: no');
    const jugs = await after('How much is the small milk jug?');
    const large = await post<Answer>(server.baseUrl, '/api/v1/query', { ragId: kb.ragId, query: 'and the large one?', conversation: jugs }, kb.apiKey);
    expect(large.body.answer).toMatch(/^Milk Jug – Large \(£28\)/);
  });
});
