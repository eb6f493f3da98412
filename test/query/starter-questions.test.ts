/**
 * The owner's starter questions over real HTTP: set on create and with PATCH (checked, 422 naming the
 * question refused, nothing stored), returned on reads and by the widget's configuration for an
 * allowed page, and cleared. The widget showing them is test/browser/widget.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../api/helpers.js';
import { type Client, signedInClient, startServer, type TestServer } from '../support/server.js';
import { ask, faqKnowledgeBase } from './helpers.js';

let server: TestServer;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  server = await startServer({ MAX_KNOWLEDGE_BASES: '10' });
  [alice, bob] = await Promise.all([signedInClient(server.baseUrl), signedInClient(server.baseUrl)]);
});
afterAll(() => server?.stop());

type Kb = { starterQuestions: string[]; greeting: string | null };

async function widgetConfig(ragId: string, apiKey: string, origin: string): Promise<{ status: number; body: { starterQuestions?: string[] } }> {
  const response = await fetch(`${server.baseUrl}/api/v1/widget/config?ragId=${ragId}&key=${encodeURIComponent(apiKey)}`, { headers: { origin } });
  return { status: response.status, body: (await response.json()) as { starterQuestions?: string[] } };
}

describe("the owner's starter questions", () => {
  it('are set, read back, given to an allowed widget and cleared', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice, ['shop.example']);
    const path = `/api/v1/knowledge-bases/${ragId}`;
    expect((await alice.get<Kb>(path)).body.starterQuestions).toEqual([]);
    expect((await widgetConfig(ragId, apiKey, 'https://shop.example')).body.starterQuestions).toEqual([]);

    // Trimmed, spaces collapsed, a repeat (ignoring case) kept once, in the owner's order; markup is text.
    const set = await alice.patch<Kb>(path, { starterQuestions: ['  How long do I have to   return a bike? ', 'Do you sell gift cards?', 'do you sell GIFT cards?', '<b>Bold</b> & "quoted"?'] });
    expect(set.status).toBe(200);
    const questions = ['How long do I have to return a bike?', 'Do you sell gift cards?', '<b>Bold</b> & "quoted"?'];
    expect(set.body.starterQuestions).toEqual(questions);
    expect((await alice.get<Kb>(path)).body.starterQuestions).toEqual(questions);
    // A patch of another field keeps them.
    expect((await alice.patch<Kb>(path, { greeting: 'Hi there' })).body).toMatchObject({ greeting: 'Hi there', starterQuestions: questions });

    // The widget gets them on an allowed page only.
    expect(await widgetConfig(ragId, apiKey, 'https://shop.example')).toMatchObject({ status: 200, body: { starterQuestions: questions } });
    expect((await widgetConfig(ragId, apiKey, 'https://elsewhere.example')).status).toBe(403);

    // Asked as a visitor would by clicking, the owner's questions are answered from the records.
    for (const question of questions.slice(0, 2)) {
      const answer = await ask(server.baseUrl, apiKey, ragId, question, { origin: 'https://shop.example' });
      expect(answer.body, question).toMatchObject({ grounded: true });
    }

    // Someone else's knowledge base is not found, whatever the body.
    expectProblem(await bob.patch(path, { starterQuestions: ['Hello?'] }), 404, 'not_found', server.baseUrl);

    // Refused whole, naming the question; what was stored stays.
    const tooLong = expectProblem(await alice.patch(path, { starterQuestions: ['Fine?', 'x'.repeat(121)] }), 422, 'validation_failed', server.baseUrl);
    expect(JSON.stringify(tooLong.errors)).toContain('/body/starterQuestions/1');
    expect(String(tooLong.detail)).toContain('starterQuestions[1] must be at most 120 characters');
    const noWord = expectProblem(await alice.patch(path, { starterQuestions: ['?!'] }), 422, 'validation_failed', server.baseUrl);
    expect(JSON.stringify(noWord.errors)).toContain('/body/starterQuestions/0');
    const control = expectProblem(await alice.patch(path, { starterQuestions: ['Line\u0007bell'] }), 422, 'validation_failed', server.baseUrl);
    expect(JSON.stringify(control.errors)).toContain('/body/starterQuestions/0');
    expectProblem(await alice.patch(path, { starterQuestions: ['a?', 'b?', 'c?', 'd?', 'e?', 'f?'] }), 422, 'validation_failed', server.baseUrl);
    expectProblem(await alice.patch(path, { starterQuestions: 'How long?' }), 422, 'validation_failed', server.baseUrl);
    expectProblem(await alice.patch(path, { starterQuestions: [42] }), 422, 'validation_failed', server.baseUrl);
    expect((await alice.get<Kb>(path)).body.starterQuestions).toEqual(questions);

    for (const clear of [null, []]) {
      await alice.patch(path, { starterQuestions: questions });
      expect((await alice.patch<Kb>(path, { starterQuestions: clear })).body.starterQuestions).toEqual([]);
      expect((await widgetConfig(ragId, apiKey, 'https://shop.example')).body.starterQuestions).toEqual([]);
    }

    const created = await alice.post<Kb>('/api/v1/knowledge-bases', { botName: 'Asked', starterQuestions: ['Was kostet der Versand?'] });
    expect(created.status).toBe(201);
    expect(created.body.starterQuestions).toEqual(['Was kostet der Versand?']);
  });
});
