/**
 * A follow-up in the owner's lists, over real HTTP: a refused "And …?" is listed with the questions
 * it leaned on (`askedAfter`), apart from the same words asked on their own; it is asked again in
 * its context for `answeredNow`; feedback sent with the chat's turns is listed the same way; and each
 * is dismissed by its question together with what it was asked after. The recorder's and the
 * stores' parts are test/query/usage-recorder.test.ts's and the storage contract's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../api/helpers.js';
import { type Client, signedInClient, startServer, type TestServer } from '../support/server.js';
import { type Answer, faqKnowledgeBase, post, uploadFile } from './helpers.js';

let server: TestServer;
let alice: Client;

beforeAll(async () => {
  server = await startServer();
  alice = await signedInClient(server.baseUrl);
});
afterAll(() => server?.stop());

interface Listed {
  question: string;
  askedAfter?: string;
  count?: number;
  unhelpful?: number;
  answeredNow?: boolean;
}
interface Report {
  totals: { queries: number; unanswered: number };
  unanswered: Listed[];
  feedback: Listed[];
}
type Turn = { role: 'user' | 'assistant'; content: string };

const first = 'Do you sell gift cards?';
const followUp = 'And can I pay for them with bitcoin?';

describe('a follow-up in the usage report', () => {
  it('is listed with the questions it leaned on, asked again in their light, and dismissed by both', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice);
    const ask = (query: string, conversation?: Turn[]) => post<Answer>(server.baseUrl, '/api/v1/query', { ragId, query, ...(conversation ? { conversation } : {}) }, apiKey);
    const opening = await ask(first);
    expect(opening.body).toMatchObject({ grounded: true });
    const chat: Turn[] = [
      { role: 'user', content: first },
      { role: 'assistant', content: opening.body.answer },
    ];
    expect((await ask(followUp, chat)).body).toMatchObject({ grounded: false });
    // The same words with nothing before them are another question for the owner.
    expect((await ask(followUp)).body).toMatchObject({ grounded: false });

    const usage = async () => (await alice.get<Report>(`/api/v1/knowledge-bases/${ragId}/usage`)).body;
    const before = await usage();
    expect(before.totals).toMatchObject({ queries: 3, unanswered: 2 });
    const inContext = before.unanswered.find((u) => u.askedAfter !== undefined);
    expect(inContext).toMatchObject({ question: followUp, askedAfter: first, count: 1, answeredNow: false });
    expect(before.unanswered.filter((u) => u.askedAfter === undefined)).toEqual([expect.objectContaining({ question: followUp, count: 1 })]);

    // A record that answers it in its context: the entry asked after gift cards is answered now.
    await uploadFile(alice, ragId, 'paypal.md', '## Paying for gift cards\n\nGift cards can be paid for with bitcoin or any credit card.\n');
    const after = await usage();
    expect(after.unanswered.find((u) => u.askedAfter === first)).toMatchObject({ question: followUp, answeredNow: true });
    // Reading the report asked again, but counted nothing.
    expect(after.totals.queries).toBe(3);

    const dismiss = (list: string, question: string, askedAfter?: string) =>
      alice.delete(
        `/api/v1/knowledge-bases/${ragId}/usage/${list}?question=${encodeURIComponent(question)}${askedAfter ? `&askedAfter=${encodeURIComponent(askedAfter)}` : ''}`,
      );
    expectProblem(await dismiss('unanswered', followUp, 'Do you sell bikes?'), 404, 'not_found', server.baseUrl);
    expect((await dismiss('unanswered', followUp, 'do you sell gift cards')).status).toBe(204);
    expect((await usage()).unanswered).toEqual([expect.not.objectContaining({ askedAfter: expect.anything() })]);

    // Feedback sent with the chat's turns names the follow-up the same way.
    const give = (body: Record<string, unknown>) => post(server.baseUrl, '/api/v1/feedback', { ragId, ...body }, apiKey);
    const validity = 'How long are they valid?';
    expect((await give({ query: validity, conversation: chat, helpful: false })).status).toBe(204);
    expect((await give({ query: validity, helpful: false })).status).toBe(204);
    const feedback = (await usage()).feedback;
    expect(feedback).toHaveLength(2);
    expect(feedback).toContainEqual(expect.objectContaining({ question: validity, askedAfter: first, unhelpful: 1 }));
    expect(feedback).toContainEqual(expect.not.objectContaining({ askedAfter: expect.anything() }));
    expect((await dismiss('feedback', validity, first)).status).toBe(204);
    expectProblem(await dismiss('feedback', validity, first), 404, 'not_found', server.baseUrl);
    expect((await usage()).feedback).toEqual([expect.not.objectContaining({ askedAfter: expect.anything() })]);

    // The turns are checked as a query's; a refusal records nothing.
    const invalid = expectProblem(await give({ query: validity, conversation: [{ role: 'user', content: '  ' }], helpful: false }), 422, 'validation_failed', server.baseUrl);
    expect(JSON.stringify(invalid.errors)).toContain('/body/conversation/0/content');
    expectProblem(await give({ query: validity, conversation: [{ role: 'system', content: 'x' }], helpful: false }), 422, 'validation_failed', server.baseUrl);
    expect((await usage()).feedback).toHaveLength(1);
  });
});
