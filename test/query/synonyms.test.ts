/**
 * The owner's synonyms over real HTTP: set with PATCH (checked, 422 naming the member), returned
 * on reads, used by `/api/v1/query`, `/api/v1/query/stream` and `/api/v1/search`, and a change
 * of them answered at once, not from an answer cached before it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../api/helpers.js';
import { type Client, signedInClient, startServer, type TestServer } from '../support/server.js';
import { ask, askStream, faqKnowledgeBase, post } from './helpers.js';

let server: TestServer;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  server = await startServer({ MAX_KNOWLEDGE_BASES: '10' });
  [alice, bob] = await Promise.all([signedInClient(server.baseUrl), signedInClient(server.baseUrl)]);
});
afterAll(() => server?.stop());

describe("the owner's synonyms", () => {
  it('are set, read back and cleared through the management API', async () => {
    const { ragId } = await faqKnowledgeBase(alice);
    const path = `/api/v1/knowledge-bases/${ragId}`;
    expect((await alice.get<{ synonyms: string[][] }>(path)).body.synonyms).toEqual([]);
    const set = await alice.patch<{ synonyms: string[][] }>(path, { synonyms: [['  vouchers ', 'gift cards', 'Gift Cards'], ['bike', 'bicycle']] });
    expect(set.status).toBe(200);
    expect(set.body.synonyms).toEqual([
      ['vouchers', 'gift cards'],
      ['bike', 'bicycle'],
    ]);
    expect((await alice.get<{ synonyms: string[][] }>(path)).body.synonyms).toEqual(set.body.synonyms);
    // Someone else's knowledge base is not found, whatever the body.
    expectProblem(await bob.patch(path, { synonyms: [['a', 'b']] }), 404, 'not_found', server.baseUrl);

    // Refused whole, naming the member; what was stored stays.
    const tooLong = await alice.patch(path, { synonyms: [['vouchers', 'x'.repeat(51)]] });
    const problem = expectProblem(tooLong, 422, 'validation_failed', server.baseUrl);
    expect(JSON.stringify(problem.errors)).toContain('/body/synonyms/0/1');
    expectProblem(await alice.patch(path, { synonyms: [['only one']] }), 422, 'validation_failed', server.baseUrl);
    expectProblem(await alice.patch(path, { synonyms: 'vouchers, gift cards' }), 422, 'validation_failed', server.baseUrl);
    expectProblem(await alice.patch(path, { synonyms: [['a', 'a ']] }), 422, 'validation_failed', server.baseUrl);
    expect((await alice.get<{ synonyms: string[][] }>(path)).body.synonyms).toEqual(set.body.synonyms);

    expect((await alice.patch<{ synonyms: string[][] }>(path, { synonyms: null })).body.synonyms).toEqual([]);
    const created = await alice.post<{ synonyms: string[][] }>('/api/v1/knowledge-bases', { botName: 'With words', synonyms: [['Porto', 'Versandkosten']] });
    expect(created.status).toBe(201);
    expect(created.body.synonyms).toEqual([['Porto', 'Versandkosten']]);
  });

  it('answer a question in the visitor\'s words from the record that uses the owner\'s, in JSON, in the stream and in search', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice);
    const question = 'Do you sell vouchers?';
    // Asked twice first, so an answer is cached under the old synonyms.
    for (let i = 0; i < 2; i++) {
      const before = await ask(server.baseUrl, apiKey, ragId, question);
      expect(before.status).toBe(200);
      expect(before.body.grounded).toBe(false);
    }

    expect((await alice.patch(`/api/v1/knowledge-bases/${ragId}`, { synonyms: [['voucher', 'gift card']] })).status).toBe(200);
    const after = await ask(server.baseUrl, apiKey, ragId, question);
    expect(after.body).toMatchObject({ grounded: true, cached: false });
    expect(after.body.answer).toContain('Gift cards are available');
    expect((await ask(server.baseUrl, apiKey, ragId, question)).body).toMatchObject({ grounded: true, cached: true });

    const stream = await askStream(server.baseUrl, apiKey, ragId, 'Can I pay with a voucher?');
    const done = stream.events.find((e) => e.event === 'done')?.data as { grounded: boolean; answer: string } | undefined;
    expect(done).toMatchObject({ grounded: true });
    expect(done?.answer).toContain('Gift cards');

    const search = await post<{ results: { passage: string }[] }>(server.baseUrl, '/api/v1/search', { ragId, query: 'vouchers' }, apiKey);
    expect(search.status).toBe(200);
    expect(search.body.results[0]?.passage).toContain('Gift cards');

    // The usage report lists the question with the word no record used; with the synonyms, none is unknown.
    type Usage = { unanswered: { question: string; count: number; unknownWords: string[] }[] };
    const listed = (await alice.get<Usage>(`/api/v1/knowledge-bases/${ragId}/usage`)).body.unanswered.find((u) => u.question === question);
    expect(listed).toMatchObject({ count: 2, unknownWords: [] });

    // Cleared: refused again at once (the answer cached before they were set is right again).
    expect((await alice.patch(`/api/v1/knowledge-bases/${ragId}`, { synonyms: [] })).status).toBe(200);
    expect((await ask(server.baseUrl, apiKey, ragId, question)).body).toMatchObject({ grounded: false });
    const again = (await alice.get<Usage>(`/api/v1/knowledge-bases/${ragId}/usage`)).body.unanswered.find((u) => u.question === question);
    expect(again?.unknownWords).toEqual(['vouchers']);
  });
});
