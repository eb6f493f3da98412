/**
 * Suggestions beside a refusal (docs/decisions.md, "Suggestions beside a refusal"): when the records
 * do not answer, `/api/v1/query` and its stream offer the titles of the records that share the
 * question's telling words, fresh and from the answer cache; asking one is answered from its
 * record. Nothing is offered beside an answer, small talk, or a question nothing in the records is
 * near.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../api/helpers.js';
import { type Client, signedInClient, type TestServer } from '../support/server.js';
import { type Answer, ask, createKb, createKey, parseSse, post, uploadFile } from './helpers.js';

type Suggested = Answer & { suggestions?: { title: string; recordId: string }[] };

describe('suggestions beside a refusal', () => {
  let server: TestServer;
  let alice: Client;
  let kb: { ragId: string; apiKey: string };
  let recordIds: Set<string>;
  const doneOf = (body: string) => parseSse(body).events.at(-1)?.data as unknown as Suggested;

  beforeAll(async () => {
    server = await startTestServer({ QUERY_RATE_PER_MINUTE: '0', QUERY_QUOTA_PER_DAY: '0', MAX_RECORDS_PER_KB: '100' });
    alice = await signedInClient(server.baseUrl);
    const ragId = await createKb(alice, 'Shiftloom help');
    await uploadFile(alice, ragId, 'help-centre.md', readFileSync(new URL('../../eval/sets/saas-help-en/help-centre.md', import.meta.url), 'utf8'));
    const { apiKey } = await createKey(alice, ragId);
    kb = { ragId, apiKey };
    const records = await alice.get<{ items: { recordId: string }[] }>(`/api/v1/knowledge-bases/${ragId}/records?limit=100`);
    recordIds = new Set(records.body.items.map((r) => r.recordId));
  });
  afterAll(() => server?.stop());

  it('offers the records near a question they do not answer, by their own headings, fresh and cached, in JSON and in the stream', async () => {
    const question = 'Do you integrate with Microsoft Teams?';
    const fresh = await ask(server.baseUrl, kb.apiKey, kb.ragId, question);
    const body = fresh.body as Suggested;
    expect(fresh.status).toBe(200);
    expect(body).toMatchObject({ grounded: false, cached: false, sources: [] });
    expect(body.suggestions?.map((s) => s.title)).toEqual(['Slack', 'Payroll integrations', 'API and webhooks']);
    for (const s of body.suggestions ?? []) expect(recordIds.has(s.recordId), s.recordId).toBe(true);

    const cached = (await ask(server.baseUrl, kb.apiKey, kb.ragId, question)).body as Suggested;
    expect(cached).toMatchObject({ grounded: false, cached: true, suggestions: body.suggestions });
    const cachedAgain = (await ask(server.baseUrl, kb.apiKey, kb.ragId, question)).body as Suggested;
    expect(cachedAgain.suggestions).toEqual(body.suggestions);

    const streamed = await post<string>(server.baseUrl, '/api/v1/query/stream', { ragId: kb.ragId, query: question }, kb.apiKey);
    expect(doneOf(streamed.body)).toMatchObject({ grounded: false, cached: true, suggestions: body.suggestions });
    // The owner's Playground gets the same suggestions, beside the words no record uses.
    const owner = await alice.post<Suggested & { unknownWords?: string[] }>(`/api/v1/knowledge-bases/${kb.ragId}/playground/query`, { query: question });
    expect(owner.body).toMatchObject({ grounded: false, suggestions: body.suggestions, unknownWords: [] }); // a record writes "Microsoft", none "Microsoft Teams"

    const freshStream = await post<string>(server.baseUrl, '/api/v1/query/stream', { ragId: kb.ragId, query: 'Can we connect it to Microsoft Teams?' }, kb.apiKey);
    const freshDone = doneOf(freshStream.body);
    expect(freshDone).toMatchObject({ grounded: false, cached: false });
    expect(freshDone.suggestions?.map((s) => s.title)).toContain('Slack');
  });

  it('a suggestion asked is answered from its record', async () => {
    const refused = (await ask(server.baseUrl, kb.apiKey, kb.ragId, 'Do you integrate with Microsoft Teams?')).body as Suggested;
    const first = refused.suggestions?.[0];
    expect(first).toBeDefined();
    const followed = await ask(server.baseUrl, kb.apiKey, kb.ragId, first?.title ?? '');
    expect(followed.body.grounded).toBe(true);
    expect(followed.body.sources[0]?.recordId).toBe(first?.recordId);
  });

  it('offers nothing beside an answer, small talk, or a question nothing in the records is near', async () => {
    for (const query of ['How do I clock in from my phone?', 'hi', 'What is the capital of Mongolia?', 'Which programming language is best for machine learning?']) {
      const json = await ask(server.baseUrl, kb.apiKey, kb.ragId, query);
      expect(json.status).toBe(200);
      expect(json.body, query).not.toHaveProperty('suggestions');
      const stream = await post<string>(server.baseUrl, '/api/v1/query/stream', { ragId: kb.ragId, query }, kb.apiKey);
      expect(doneOf(stream.body), query).not.toHaveProperty('suggestions');
    }
  });
});
