/**
 * Answers and search with the built-in extractive answerer (product.md §5):
 * grounded answers cite their sources and every marker resolves; off-topic
 * questions abstain plainly; validation; search ranking and limits; new and
 * deleted records are seen by the very next query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../api/helpers.js';
import { type Client, signedInClient, startServer, type TestServer } from '../support/server.js';
import { type Answer, ask, citationNumbers, createKb, createKey, expectCitationsResolve, faqKnowledgeBase, post, uploadFile } from './helpers.js';

interface SearchBody {
  results: { recordId: string; sourceName: string; passage: string; score: number }[];
  requestId: string;
}

let server: TestServer;
let alice: Client;
let faq: { ragId: string; apiKey: string };

beforeAll(async () => {
  server = await startServer({ MAX_KNOWLEDGE_BASES: '20', QUERY_RATE_PER_MINUTE: '0', QUERY_QUOTA_PER_DAY: '0' });
  alice = await signedInClient(server.baseUrl);
  faq = await faqKnowledgeBase(alice);
});
afterAll(() => server?.stop());

const search = (body: Record<string, unknown>, apiKey = faq.apiKey) => post<SearchBody>(server.baseUrl, '/api/v1/search', body, apiKey);
const notFoundPattern = /couldn.t find|could not find|not in the knowledge base|no information/i;

describe('answerable questions', () => {
  it.each([
    ['Where do orders ship from?', 'Bremen', 'faq.md'],
    ['What are your opening hours?', 'Monday to Saturday from 9:00 to 18:00', 'faq.json'],
    ['Do you sell gift cards?', '25 to 500 euros', 'faq.json'],
    ['Is there a warranty on the frame?', 'lifetime warranty', 'faq.md'],
    ['Can I return a bike for a refund?', '30 days', 'faq.md'],
  ])('%s → grounded, states the fact, cites it', async (query, fact, sourceName) => {
    const response = await ask(server.baseUrl, faq.apiKey, faq.ragId, query);
    expect(response.status).toBe(200);
    const body = response.body;
    expect(Object.keys(body).sort()).toEqual(['answer', 'cached', 'grounded', 'requestId', 'sources']);
    expect(body.grounded).toBe(true);
    expect(body.answer).toContain(fact);
    expect(body.requestId).toBe(response.headers.get('x-request-id'));
    expectCitationsResolve(body);
    // The fact comes from a cited source of the expected file.
    const citing = body.sources.filter((s) => s.passage.includes(fact));
    expect(citing.length).toBeGreaterThan(0);
    expect(citing.map((s) => s.sourceName)).toContain(sourceName);
    for (const source of body.sources) {
      expect(source.recordId).toMatch(/^rec_/);
      expect(source.passage.length).toBeGreaterThan(0);
      expect(source.score).toBeGreaterThan(0);
      expect(['faq.md', 'faq.json']).toContain(source.sourceName);
    }
  });

  it('a question spanning several records cites each of them, in order', async () => {
    const ragId = await createKb(alice, 'Lamps');
    await uploadFile(alice, ragId, 'lamps.md', '# Charging\n\nThe Alpha lamp charges over USB-C.\n\n# Battery\n\nThe Alpha lamp battery lasts ten hours.\n\n# Colours\n\nThe Beta lamp comes in red.\n');
    const { apiKey } = await createKey(alice, ragId);
    const response = await ask(server.baseUrl, apiKey, ragId, 'How does the Alpha lamp charge, and how long does the Alpha battery last?');
    expect(response.status).toBe(200);
    expect(response.body.grounded).toBe(true);
    // Two parts, each answered from its own record.
    expect(response.body.sources.length).toBeGreaterThan(1);
    expectCitationsResolve(response.body);
    // First appearance order follows the sources' order.
    const firstSeen = [...new Set(citationNumbers(response.body.answer))];
    expect(firstSeen).toEqual(response.body.sources.map((_, i) => i + 1));
    expect(new Set(response.body.sources.map((s) => s.recordId)).size).toBe(response.body.sources.length);
  });
});

describe('questions the records do not answer', () => {
  it.each(['What is the capital of Australia?', 'How do I bake sourdough bread?', 'Who won the 1998 football world cup?', 'What is it?'])(
    '%s → not grounded, no sources, says so plainly',
    async (query) => {
      const response = await ask(server.baseUrl, faq.apiKey, faq.ragId, query);
      expect(response.status).toBe(200);
      expect(response.body.grounded).toBe(false);
      expect(response.body.sources).toEqual([]);
      expect(response.body.answer).toMatch(notFoundPattern);
      expect(citationNumbers(response.body.answer)).toEqual([]);
    },
  );

  it('an empty knowledge base answers nothing', async () => {
    const ragId = await createKb(alice, 'Empty');
    const { apiKey } = await createKey(alice, ragId);
    const response = await ask(server.baseUrl, apiKey, ragId, 'Where do orders ship from?');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ grounded: false, sources: [] });
    expect(response.body.answer).toMatch(notFoundPattern);
    const results = await search({ ragId, query: 'Where do orders ship from?' }, apiKey);
    expect(results.body.results).toEqual([]);
  });

  it('tenants never share records', async () => {
    const ragId = await createKb(alice, 'Other shop');
    await uploadFile(alice, ragId, 'other.md', '# Delivery\n\nParcels leave our depot in Graz every Friday.\n');
    const { apiKey } = await createKey(alice, ragId);
    const response = await ask(server.baseUrl, apiKey, ragId, 'Where do orders ship from? Bremen warehouse');
    expect(response.body.answer).not.toContain('Bremen');
    for (const source of response.body.sources) expect(source.sourceName).toBe('other.md');
  });
});

describe('validation', () => {
  it('refuses an empty or whitespace-only query with 422', async () => {
    for (const query of ['', '   ', '\n\t  \n']) {
      const response = await ask(server.baseUrl, faq.apiKey, faq.ragId, query);
      expectProblem(response, 422, 'validation_failed');
      expectProblem(await search({ ragId: faq.ragId, query }), 422, 'validation_failed');
    }
  });

  it('accepts 4,000 characters after trimming and refuses 4,001', async () => {
    const long = 'x'.repeat(4000);
    expect((await ask(server.baseUrl, faq.apiKey, faq.ragId, long)).status).toBe(200);
    expect((await ask(server.baseUrl, faq.apiKey, faq.ragId, `   ${long}\n `)).status).toBe(200);
    const tooLong = await ask(server.baseUrl, faq.apiKey, faq.ragId, `${long}y`);
    expectProblem(tooLong, 422, 'validation_failed');
    const words = `${'shipping '.repeat(444)}ship`; // 4,000 characters of real words
    expect(words.length).toBe(4000);
    expect((await ask(server.baseUrl, faq.apiKey, faq.ragId, words)).status).toBe(200);
  });

  it('refuses a body without ragId or query, or with a wrong type, with 422', async () => {
    for (const body of [{ query: 'Where do orders ship from?' }, { ragId: faq.ragId }, { ragId: faq.ragId, query: { text: 'hi' } }, { ragId: '', query: 'hi' }, null, []]) {
      const response = await post(server.baseUrl, '/api/v1/query', body, faq.apiKey);
      expectProblem(response, 422, 'validation_failed');
    }
    const missing = await post(server.baseUrl, '/api/v1/query', { query: 'Where do orders ship from?' }, faq.apiKey);
    expect(JSON.stringify(missing.body)).toContain('ragId');
  });

  it('refuses unknown fields with 422', async () => {
    const response = await post(server.baseUrl, '/api/v1/query', { ragId: faq.ragId, query: 'hi', stream: true }, faq.apiKey);
    expectProblem(response, 422, 'validation_failed');
  });

  it('refuses malformed JSON with 400', async () => {
    for (const path of ['/api/v1/query', '/api/v1/search', '/api/v1/query/stream']) {
      const response = await post(server.baseUrl, path, '{"ragId": "x", "query": ', faq.apiKey);
      expectProblem(response, 400, 'bad_request');
    }
  });
});

describe('search', () => {
  it('ranks records, most relevant first, without an answer', async () => {
    const response = await search({ ragId: faq.ragId, query: 'return a bike for a refund' });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['requestId', 'results']);
    const { results } = response.body;
    expect(results.length).toBeGreaterThan(0);
    expect(results[0]?.passage).toContain('return any bike within 30 days');
    expect(results[0]?.sourceName).toBe('faq.md');
    for (let i = 1; i < results.length; i++) expect(results[i - 1]?.score ?? 0).toBeGreaterThanOrEqual(results[i]?.score ?? 0);
    for (const r of results) expect(Object.keys(r).sort()).toEqual(['passage', 'recordId', 'score', 'sourceName', 'title']);
  });

  it('honours limit (default 10, at most 50)', async () => {
    const ragId = await createKb(alice, 'Many');
    const items = Array.from({ length: 20 }, (_, i) => ({ question: `What does the lantern model L${i} cost?`, answer: `The lantern model L${i} costs ${10 + i} euros.` }));
    await uploadFile(alice, ragId, 'lanterns.json', JSON.stringify(items));
    const { apiKey } = await createKey(alice, ragId);
    const q = (extra: Record<string, unknown>) => search({ ragId, query: 'lantern model cost', ...extra }, apiKey);
    expect((await q({})).body.results).toHaveLength(10);
    expect((await q({ limit: 3 })).body.results).toHaveLength(3);
    expect((await q({ limit: 1 })).body.results).toHaveLength(1);
    expect((await q({ limit: 50 })).body.results).toHaveLength(20);
    expectProblem(await q({ limit: 51 }), 422, 'validation_failed');
    expectProblem(await q({ limit: 0 }), 422, 'validation_failed');
    expectProblem(await q({ limit: 2.5 }), 422, 'validation_failed');
    expectProblem(await q({ limit: 'ten' }), 422, 'validation_failed');
  });
});

describe('freshness', () => {
  it('a record is answerable right after its upload returns', async () => {
    const ragId = await createKb(alice, 'Fresh');
    await uploadFile(alice, ragId, 'faq.md', '# Hours\n\nWe open at nine.\n');
    const { apiKey } = await createKey(alice, ragId);
    const before = await ask(server.baseUrl, apiKey, ragId, 'What is the Zanzibar store code?');
    expect(before.body.grounded).toBe(false);

    const uploaded = await alice.post(`/api/v1/knowledge-bases/${ragId}/sources`, { name: 'codes', text: 'The Zanzibar store code is QX-4471.', format: 'txt' });
    expect(uploaded.status).toBe(201);
    const after = await ask(server.baseUrl, apiKey, ragId, 'What is the Zanzibar store code?');
    expect(after.body.grounded).toBe(true);
    expect(after.body.cached).toBe(false);
    expect(after.body.answer).toContain('QX-4471');
    expect(after.body.sources[0]?.sourceName).toBe('codes');
    const found = await search({ ragId, query: 'Zanzibar store code' }, apiKey);
    expect(found.body.results[0]?.passage).toContain('QX-4471');
  });

  it('deleting a record removes it from answers and search at once', async () => {
    const ragId = await createKb(alice, 'Delete record');
    const report = await uploadFile(alice, ragId, 'codes.json', JSON.stringify([{ question: 'What is the Lisbon store code?', answer: 'The Lisbon store code is LX-9001.' }]));
    await uploadFile(alice, ragId, 'other.md', '# Hours\n\nWe open at nine.\n');
    const { apiKey } = await createKey(alice, ragId);
    const recordId = report.items[0]?.recordId as string;
    const first = await ask(server.baseUrl, apiKey, ragId, 'What is the Lisbon store code?');
    expect(first.body.answer).toContain('LX-9001');
    expect(first.body.sources[0]?.recordId).toBe(recordId);

    expect((await alice.delete(`/api/v1/knowledge-bases/${ragId}/records/${recordId}`)).status).toBe(204);
    const after = await ask(server.baseUrl, apiKey, ragId, 'What is the Lisbon store code?');
    expect(after.body.cached).toBe(false);
    expect(after.body.answer).not.toContain('LX-9001');
    expect(after.body.sources.map((s) => s.recordId)).not.toContain(recordId);
    const found = await search({ ragId, query: 'Lisbon store code' }, apiKey);
    expect(found.body.results.map((r) => r.recordId)).not.toContain(recordId);
  });

  it('deleting a source removes its records from answers at once', async () => {
    const ragId = await createKb(alice, 'Delete source');
    const report = await uploadFile(alice, ragId, 'codes.md', '# Codes\n\nThe Oslo store code is OS-3131.\n');
    await uploadFile(alice, ragId, 'other.md', '# Hours\n\nWe open at nine.\n');
    const { apiKey } = await createKey(alice, ragId);
    const first = await ask(server.baseUrl, apiKey, ragId, 'What is the Oslo store code?');
    expect(first.body.answer).toContain('OS-3131');

    expect((await alice.delete(`/api/v1/knowledge-bases/${ragId}/sources/${report.source.sourceId}`)).status).toBe(204);
    const after: Answer = (await ask(server.baseUrl, apiKey, ragId, 'What is the Oslo store code?')).body;
    expect(after).toMatchObject({ grounded: false, sources: [], cached: false });
    expect(after.answer).not.toContain('OS-3131');
  });
});
