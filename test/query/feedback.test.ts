/**
 * Visitors' feedback on answers over real HTTP: `POST /api/v1/feedback` checked as a query is (key,
 * whitelist, CORS preflight), refused with a 422 naming the part, counted as no query, and shown
 * in the owner's usage report with the records the answer cited, then dismissed. The widget's
 * buttons are test/browser/widget.test.ts's; the stores' part is the storage contract's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../api/helpers.js';
import { type Client, signedInClient, startServer, type TestServer } from '../support/server.js';
import { ask, faqKnowledgeBase, post } from './helpers.js';

let server: TestServer;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  // A day's feedback per knowledge base is bounded by the day's query quota.
  server = await startServer({ MAX_KNOWLEDGE_BASES: '10', QUERY_QUOTA_PER_DAY: '6' });
  [alice, bob] = await Promise.all([signedInClient(server.baseUrl), signedInClient(server.baseUrl)]);
});
afterAll(() => server?.stop());

interface Report {
  days: { queries: number; helpful: number; unhelpful: number }[];
  totals: { queries: number; helpful: number; unhelpful: number };
  feedback: { question: string; helpful: number; unhelpful: number; lastAt: string; records: { recordId: string; title: string | null; sourceName: string }[] }[];
}

const shop = { origin: 'https://shop.example' };

describe("visitors' feedback on answers", () => {
  it('is taken from an allowed page, counts as no query, and lists the unhelpful answers with their records', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice, ['shop.example']);
    const answer = await ask(server.baseUrl, apiKey, ragId, 'How long is the warranty?', shop);
    expect(answer.body).toMatchObject({ grounded: true });
    const cited = answer.body.sources.map((s) => s.recordId);
    expect(cited.length).toBeGreaterThan(0);

    const give = (body: Record<string, unknown>, headers: Record<string, string> = shop, key: string | undefined = apiKey) =>
      post(server.baseUrl, '/api/v1/feedback', { ragId, ...body }, key, headers);
    const no = await give({ query: 'How long is the warranty?', helpful: false, sources: cited });
    expect(no.status).toBe(204);
    expect(no.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    // Another wording of the same question is the same question; the latest wording is listed.
    expect((await give({ query: '  how long is the warranty ', helpful: false, sources: cited })).status).toBe(204);
    expect((await give({ query: 'How long is the warranty', helpful: true, sources: cited })).status).toBe(204);
    // Helpful only: counted, not listed. A server-to-server call (no Origin) is allowed, as for queries.
    expect((await give({ query: 'Do you ship to Mexico?', helpful: true }, {})).status).toBe(204);
    // An id the knowledge base does not hold is not shown.
    expect((await give({ query: 'Which cards do you take?', helpful: false, sources: ['rec_notours', cited[0]] })).status).toBe(204);

    const report = await alice.get<Report>(`/api/v1/knowledge-bases/${ragId}/usage`);
    expect(report.status).toBe(200);
    expect(report.body.totals).toMatchObject({ queries: 1, helpful: 2, unhelpful: 3 });
    expect(report.body.days.at(-1)).toMatchObject({ queries: 1, helpful: 2, unhelpful: 3 });
    expect(report.body.feedback.map((f) => [f.question, f.helpful, f.unhelpful])).toEqual([
      ['How long is the warranty', 1, 2],
      ['Which cards do you take?', 0, 1],
    ]);
    const warranty = report.body.feedback[0];
    expect(warranty?.records.map((r) => r.recordId)).toEqual(cited);
    expect(warranty?.records[0]?.sourceName).toMatch(/^faq\./);
    expect(report.body.feedback[1]?.records.map((r) => r.recordId)).toEqual([cited[0]]);

    // Another account sees nothing and dismisses nothing; the owner dismisses it, once.
    expectProblem(await bob.get(`/api/v1/knowledge-bases/${ragId}/usage`), 404, 'not_found', server.baseUrl);
    const dismiss = (client: Client, question: string) => client.delete(`/api/v1/knowledge-bases/${ragId}/usage/feedback?question=${encodeURIComponent(question)}`);
    expectProblem(await dismiss(bob, 'How long is the warranty'), 404, 'not_found', server.baseUrl);
    expect((await dismiss(alice, 'HOW LONG IS THE WARRANTY?')).status).toBe(204);
    expectProblem(await dismiss(alice, 'How long is the warranty'), 404, 'not_found', server.baseUrl);
    const after = await alice.get<Report>(`/api/v1/knowledge-bases/${ragId}/usage`);
    expect(after.body.feedback.map((f) => f.question)).toEqual(['Which cards do you take?']);
    // The day's counts stay: dismissing takes a question off the list, not the feedback out of the history.
    expect(after.body.totals).toMatchObject({ helpful: 2, unhelpful: 3 });
  });

  it('is refused as a query would be, and a refusal records nothing', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice, ['shop.example']);
    const give = (body: unknown, key: string | null = apiKey, headers: Record<string, string> = shop) => post(server.baseUrl, '/api/v1/feedback', body, key ?? undefined, headers);
    const ok = { ragId, query: 'How long is the warranty?', helpful: false };

    expectProblem(await give(ok, null), 401, 'unauthorized', server.baseUrl);
    expectProblem(await give(ok, `${apiKey}x`), 401, 'unauthorized', server.baseUrl);
    const elsewhere = expectProblem(await give(ok, apiKey, { origin: 'https://elsewhere.example' }), 403, 'origin_not_allowed', server.baseUrl);
    expect(elsewhere).toBeDefined();
    // Someone else's key does not reach this knowledge base.
    const other = await faqKnowledgeBase(bob, ['shop.example']);
    expectProblem(await give(ok, other.apiKey), 401, 'unauthorized', server.baseUrl);

    const invalid = async (body: unknown, location: string) => {
      const problem = expectProblem(await give(body), 422, 'validation_failed', server.baseUrl);
      expect(JSON.stringify(problem.errors), JSON.stringify(body)).toContain(location);
    };
    await invalid({ ...ok, query: '   ' }, '/body/query');
    await invalid({ ...ok, query: 'x'.repeat(4001) }, '/body/query');
    await invalid({ ...ok, helpful: 'yes' }, '/body/helpful');
    await invalid({ ragId, query: 'Hi?' }, 'helpful');
    await invalid({ ...ok, sources: ['rec_a', '<script>'] }, '/body/sources/1');
    await invalid({ ...ok, sources: Array.from({ length: 11 }, (_, i) => `rec_${i}`) }, '/body/sources');
    await invalid({ ...ok, extra: 1 }, 'extra');
    expectProblem(await give('{"ragId":'), 400, 'bad_request', server.baseUrl);

    const report = await alice.get<Report>(`/api/v1/knowledge-bases/${ragId}/usage`);
    expect(report.body.totals).toMatchObject({ queries: 0, helpful: 0, unhelpful: 0 });
    expect(report.body.feedback).toEqual([]);
  });

  it("is bounded per knowledge base and day by the day's query quota, which it does not use", async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice, ['shop.example']);
    const give = () => post(server.baseUrl, '/api/v1/feedback', { ragId, query: 'Do you ship to Mexico?', helpful: true }, apiKey, shop);
    for (let i = 0; i < 6; i++) expect((await give()).status).toBe(204);
    const refused = expectProblem(await give(), 429, 'rate_limited', server.baseUrl);
    expect(refused).toMatchObject({ limit: 'feedback_day' });
    // Questions are still answered: feedback took none of them.
    expect((await ask(server.baseUrl, apiKey, ragId, 'Do you ship to Mexico?', shop)).status).toBe(200);
    const report = await alice.get<Report>(`/api/v1/knowledge-bases/${ragId}/usage`);
    expect(report.body.totals).toMatchObject({ queries: 1, helpful: 6 });
  });

  it('is preflighted for whitelisted origins only', async () => {
    await faqKnowledgeBase(alice, ['widget-shop.example']);
    const preflight = (origin: string) =>
      fetch(`${server.baseUrl}/api/v1/feedback`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-api-key' },
      });
    const allowed = await preflight('https://widget-shop.example');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://widget-shop.example');
    expect((await preflight('https://nobody.example')).status).toBe(403);
  });
});
