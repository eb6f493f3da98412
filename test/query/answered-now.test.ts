/**
 * The usage report marks an unanswered question the records answer now (`answeredNow`): asked again
 * when the report is read, so the owner who added a record for it sees it answered and can dismiss
 * it. Over real HTTP, built-in answerer; the report's own logic is test/query/usage-reports.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, signedInClient, startServer, type TestServer } from '../support/server.js';
import { ask, faqKnowledgeBase, uploadFile } from './helpers.js';

let server: TestServer;
let alice: Client;

beforeAll(async () => {
  server = await startServer();
  alice = await signedInClient(server.baseUrl);
});
afterAll(() => server?.stop());

type Report = { totals: { queries: number }; unanswered: { question: string; count: number; answeredNow?: boolean }[] };

describe('unanswered questions answered since', () => {
  it('are marked answered once a record answers them, and the report counts nothing for asking again', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice);
    const question = 'Can I bring my dog into the shop?';
    expect((await ask(server.baseUrl, apiKey, ragId, question)).body).toMatchObject({ grounded: false });
    const usage = async () => (await alice.get<Report>(`/api/v1/knowledge-bases/${ragId}/usage`)).body;

    const before = await usage();
    expect(before.unanswered).toEqual([expect.objectContaining({ question, count: 1, answeredNow: false })]);

    await uploadFile(alice, ragId, 'dogs.md', '## Dogs in the shop\n\nDogs on a lead are welcome in our shop in Bremen.\n');
    const after = await usage();
    expect(after.unanswered).toEqual([expect.objectContaining({ question, count: 1, answeredNow: true })]);
    // Reading the report asked the question again, but that is no visitor's query.
    expect(after.totals.queries).toBe(1);
    expect((await ask(server.baseUrl, apiKey, ragId, question)).body).toMatchObject({ grounded: true });
  });
});
