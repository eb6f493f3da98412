/**
 * The MCP server through the official SDK client over loopback, with a
 * bearer token from /oauth/register + /oauth/claim: the tool list, the
 * knowledge-base lifecycle, grounded answers with citations, search, an API
 * key that works on /api/v1/query, utilities, and tool errors.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { type Agent, connectMcp, faq, registerAgent, structured } from './helpers.js';

let server: TestServer;
let agent: Agent;
let client: Client;
let ragId: string;

beforeAll(async () => {
  server = await startServer({ MAX_RECORDS_PER_KB: '10' });
  agent = await registerAgent(server);
  client = await connectMcp(server, agent.accessToken);
});
afterAll(async () => {
  await client?.close();
  await server?.stop();
});

describe('discovery over MCP', () => {
  it('negotiates 2025-11-25 and names the server', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'groundwork', version: '1.0.0' });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toMatch(/query_knowledge_base/);
  });

  it('lists every tool of product.md §7 with a JSON Schema for its input', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'add_records',
        'create_api_key',
        'create_knowledge_base',
        'delete_knowledge_base',
        'dismiss_usage_question',
        'get_knowledge_base',
        'get_usage',
        'list_knowledge_bases',
        'list_records',
        'list_utilities',
        'query_knowledge_base',
        'run_utility',
        'search_knowledge_base',
        'update_knowledge_base',
      ].sort(),
    );
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.inputSchema.type).toBe('object');
    }
    const add = tools.find((t) => t.name === 'add_records');
    expect(add?.inputSchema.required).toEqual(expect.arrayContaining(['ragId', 'name', 'content']));
    expect((add?.inputSchema.properties?.format as { enum: string[] }).enum).toEqual(['text', 'markdown', 'json', 'jsonl']);
    expect(tools.find((t) => t.name === 'delete_knowledge_base')?.annotations?.destructiveHint).toBe(true);
    expect(tools.find((t) => t.name === 'query_knowledge_base')?.outputSchema?.properties).toHaveProperty('sources');
  });
});

describe('knowledge bases', () => {
  it('creates a knowledge base and lists it', async () => {
    const created = structured<{ knowledgeBase: { ragId: string; botName: string } }>(
      await client.callTool({ name: 'create_knowledge_base', arguments: { botName: 'Shop help' } }),
    );
    ragId = created.knowledgeBase.ragId;
    expect(created.knowledgeBase.botName).toBe('Shop help');
    const listed = structured<{ knowledgeBases: { ragId: string; recordCount: number }[] }>(await client.callTool({ name: 'list_knowledge_bases', arguments: {} }));
    expect(listed.knowledgeBases).toEqual([expect.objectContaining({ ragId, recordCount: 0, fallbackMessage: null })]);
  });

  it("sets, reads and clears the knowledge base's fallback message", async () => {
    type Kb = { knowledgeBase: { ragId: string; botName: string; fallbackMessage: string | null } };
    const { tools } = await client.listTools();
    for (const name of ['create_knowledge_base', 'update_knowledge_base']) {
      expect(tools.find((t) => t.name === name)?.inputSchema.properties, name).toHaveProperty('fallbackMessage');
    }
    const hostile = '<img src=x onerror=alert(1)> Ask us at help@shop.example';
    const updated = structured<Kb>(await client.callTool({ name: 'update_knowledge_base', arguments: { ragId, fallbackMessage: `  ${hostile}  ` } }));
    expect(updated.knowledgeBase).toMatchObject({ ragId, botName: 'Shop help', fallbackMessage: hostile });
    expect(structured<Kb>(await client.callTool({ name: 'get_knowledge_base', arguments: { ragId } })).knowledgeBase.fallbackMessage).toBe(hostile);
    const listed = structured<{ knowledgeBases: { ragId: string; fallbackMessage: string | null }[] }>(await client.callTool({ name: 'list_knowledge_bases', arguments: {} }));
    expect(listed.knowledgeBases.find((k) => k.ragId === ragId)?.fallbackMessage).toBe(hostile);

    // The same record through the management API.
    const viaApi = await fetch(`${server.baseUrl}/api/v1/knowledge-bases/${ragId}`, { headers: { authorization: `Bearer ${agent.accessToken}` } });
    expect(((await viaApi.json()) as { fallbackMessage: string | null }).fallbackMessage).toBe(hostile);

    const tooLong = await client.callTool({ name: 'update_knowledge_base', arguments: { ragId, fallbackMessage: 'x'.repeat(501) } });
    expect(tooLong.isError).toBe(true);
    expect((tooLong.content as { text: string }[])[0]?.text).toMatch(/^validation_failed: fallbackMessage must be at most 500 characters/);
    const wrongType = await client.callTool({ name: 'update_knowledge_base', arguments: { ragId, fallbackMessage: 42 } });
    expect(wrongType.isError).toBe(true);
    expect((wrongType.content as { text: string }[])[0]?.text).toMatch(/Input validation error/);
    const nothing = await client.callTool({ name: 'update_knowledge_base', arguments: { ragId } });
    expect(nothing.isError).toBe(true);
    expect(structured<Kb>(await client.callTool({ name: 'get_knowledge_base', arguments: { ragId } })).knowledgeBase.fallbackMessage).toBe(hostile);

    // A name change leaves it; null clears it.
    const renamed = structured<Kb>(await client.callTool({ name: 'update_knowledge_base', arguments: { ragId, botName: 'Shop helper' } }));
    expect(renamed.knowledgeBase).toMatchObject({ botName: 'Shop helper', fallbackMessage: hostile });
    const cleared = structured<Kb>(await client.callTool({ name: 'update_knowledge_base', arguments: { ragId, botName: 'Shop help', fallbackMessage: null } }));
    expect(cleared.knowledgeBase).toMatchObject({ botName: 'Shop help', fallbackMessage: null });

    // create_knowledge_base takes it too (deleted again: the tests below count on one free slot).
    const other = structured<Kb>(await client.callTool({ name: 'create_knowledge_base', arguments: { botName: 'Second', fallbackMessage: 'Call us.' } }));
    expect(other.knowledgeBase).toMatchObject({ botName: 'Second', fallbackMessage: 'Call us.' });
    expect(structured<Kb>(await client.callTool({ name: 'get_knowledge_base', arguments: { ragId: other.knowledgeBase.ragId } })).knowledgeBase.fallbackMessage).toBe('Call us.');
    expect(structured(await client.callTool({ name: 'delete_knowledge_base', arguments: { ragId: other.knowledgeBase.ragId } }))).toMatchObject({ deleted: true });
  });

  it("sets, reads and clears the knowledge base's synonyms", async () => {
    type Kb = { knowledgeBase: { ragId: string; synonyms: string[][] } };
    const { tools } = await client.listTools();
    for (const name of ['create_knowledge_base', 'update_knowledge_base']) {
      expect(tools.find((t) => t.name === name)?.inputSchema.properties, name).toHaveProperty('synonyms');
    }
    const updated = structured<Kb>(await client.callTool({ name: 'update_knowledge_base', arguments: { ragId, synonyms: [[' voucher ', 'gift card', 'Gift card']] } }));
    expect(updated.knowledgeBase.synonyms).toEqual([['voucher', 'gift card']]);
    expect(structured<Kb>(await client.callTool({ name: 'get_knowledge_base', arguments: { ragId } })).knowledgeBase.synonyms).toEqual([['voucher', 'gift card']]);
    const viaApi = await fetch(`${server.baseUrl}/api/v1/knowledge-bases/${ragId}`, { headers: { authorization: `Bearer ${agent.accessToken}` } });
    expect(((await viaApi.json()) as { synonyms: string[][] }).synonyms).toEqual([['voucher', 'gift card']]);

    const refused = await client.callTool({ name: 'update_knowledge_base', arguments: { ragId, synonyms: [['voucher', 'x'.repeat(51)]] } });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]?.text).toMatch(/^validation_failed: synonyms\[0\]\[1\] must be at most 50 characters/);
    const oneMember = await client.callTool({ name: 'update_knowledge_base', arguments: { ragId, synonyms: [['voucher']] } });
    expect(oneMember.isError).toBe(true);
    expect(structured<Kb>(await client.callTool({ name: 'get_knowledge_base', arguments: { ragId } })).knowledgeBase.synonyms).toEqual([['voucher', 'gift card']]);

    const cleared = structured<Kb>(await client.callTool({ name: 'update_knowledge_base', arguments: { ragId, synonyms: null } }));
    expect(cleared.knowledgeBase.synonyms).toEqual([]);
  });

  it("sets, reads and clears the widget's greeting and starter questions", async () => {
    type Kb = { knowledgeBase: { ragId: string; greeting: string | null; starterQuestions: string[] } };
    const { tools } = await client.listTools();
    for (const name of ['create_knowledge_base', 'update_knowledge_base']) {
      expect(tools.find((t) => t.name === name)?.inputSchema.properties, name).toHaveProperty('starterQuestions');
    }
    const questions = ['Do you ship to Canada?', 'How long is the warranty?'];
    const updated = structured<Kb>(
      await client.callTool({ name: 'update_knowledge_base', arguments: { ragId, greeting: 'Hi!', starterQuestions: [' Do you ship to  Canada? ', 'How long is the warranty?', 'do you ship to canada?'] } }),
    );
    expect(updated.knowledgeBase).toMatchObject({ greeting: 'Hi!', starterQuestions: questions });
    expect(structured<Kb>(await client.callTool({ name: 'get_knowledge_base', arguments: { ragId } })).knowledgeBase).toMatchObject({ greeting: 'Hi!', starterQuestions: questions });
    const viaApi = await fetch(`${server.baseUrl}/api/v1/knowledge-bases/${ragId}`, { headers: { authorization: `Bearer ${agent.accessToken}` } });
    expect(((await viaApi.json()) as { starterQuestions: string[] }).starterQuestions).toEqual(questions);

    const refused = await client.callTool({ name: 'update_knowledge_base', arguments: { ragId, starterQuestions: ['Fine?', 'x'.repeat(121)] } });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]?.text).toMatch(/^validation_failed: starterQuestions\[1\] must be at most 120 characters/);
    expect(structured<Kb>(await client.callTool({ name: 'get_knowledge_base', arguments: { ragId } })).knowledgeBase.starterQuestions).toEqual(questions);

    const cleared = structured<Kb>(await client.callTool({ name: 'update_knowledge_base', arguments: { ragId, greeting: null, starterQuestions: [] } }));
    expect(cleared.knowledgeBase).toMatchObject({ greeting: null, starterQuestions: [] });
  });

  it('adds records in each format, skipping duplicates', async () => {
    const added = structured<{ added: number; duplicate: number; quota: { used: number } }>(
      await client.callTool({ name: 'add_records', arguments: { ragId, name: 'FAQ', content: faq } }),
    );
    expect(added).toMatchObject({ added: 3, duplicate: 0, quota: { used: 3 } });
    const again = structured<{ added: number; duplicate: number }>(await client.callTool({ name: 'add_records', arguments: { ragId, name: 'FAQ again', content: faq } }));
    expect(again).toMatchObject({ added: 0, duplicate: 3 });
    const md = structured<{ added: number }>(
      await client.callTool({
        name: 'add_records',
        arguments: { ragId, name: 'Payments.md', format: 'markdown', content: '# Payments\n\nWe accept credit cards and PayPal.' },
      }),
    );
    expect(md.added).toBe(1);
    const json = structured<{ added: number }>(
      await client.callTool({
        name: 'add_records',
        arguments: { ragId, name: 'products.json', format: 'json', content: JSON.stringify([{ name: 'Blue mug', price: '12 EUR', description: 'A blue ceramic mug.' }]) },
      }),
    );
    expect(json.added).toBe(1);
    const listed = structured<{ records: { recordId: string; text: string }[]; nextCursor: string | null }>(
      await client.callTool({ name: 'list_records', arguments: { ragId, limit: 3 } }),
    );
    expect(listed.records).toHaveLength(3);
    expect(listed.nextCursor).toEqual(expect.any(String));
    const rest = structured<{ records: unknown[]; nextCursor: string | null }>(
      await client.callTool({ name: 'list_records', arguments: { ragId, limit: 3, cursor: listed.nextCursor } }),
    );
    expect(rest).toMatchObject({ records: [expect.anything(), expect.anything()], nextCursor: null });
  });

  it('answers from the records with citations, as structured content and text', async () => {
    const result = await client.callTool({ name: 'query_knowledge_base', arguments: { ragId, query: 'When are you open on Saturday?' } });
    const answer = structured<{ answer: string; grounded: boolean; cached: boolean; sources: { sourceName: string; title: string | null; passage: string }[] }>(result);
    expect(answer.grounded).toBe(true);
    expect(answer.sources.length).toBeGreaterThan(0);
    expect(answer.sources[0]?.sourceName).toBe('FAQ');
    expect(answer.answer).toMatch(/10am/);
    for (const marker of answer.answer.matchAll(/\[(\d+)\]/g)) expect(Number(marker[1])).toBeLessThanOrEqual(answer.sources.length);
    const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
    expect(text).toContain(answer.answer);
    // The text names each source by the record's title (the FAQ question) where it has one.
    const first = answer.sources[0];
    expect(first?.title).toEqual(expect.any(String));
    expect(text).toContain(`Sources:\n[1] ${first?.title}: `);
  });

  it('says plainly when the records do not cover the question', async () => {
    const answer = structured<{ grounded: boolean; sources: unknown[] }>(
      await client.callTool({ name: 'query_knowledge_base', arguments: { ragId, query: 'Which programming language is the moon made of?' } }),
    );
    expect(answer).toMatchObject({ grounded: false, sources: [] });
    expect(answer).not.toHaveProperty('suggestions');
    // A refusal near a record offers it, in the structured content and in the text.
    const near = await client.callTool({ name: 'query_knowledge_base', arguments: { ragId, query: 'Is the blue mug dishwasher safe?' } });
    const offered = structured<{ grounded: boolean; suggestions?: { title: string; recordId: string }[] }>(near);
    expect(offered.grounded).toBe(false);
    expect(offered.suggestions?.map((s) => s.title)).toEqual(['Blue mug']);
    expect((near.content as { type: string; text: string }[])[0]?.text).toContain('Related records:\n- Blue mug');
  });

  it('searches without generating an answer', async () => {
    const { results } = structured<{ results: { sourceName: string; passage: string; score: number }[] }>(
      await client.callTool({ name: 'search_knowledge_base', arguments: { ragId, query: 'return refund', limit: 2 } }),
    );
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(2);
    expect(results[0]?.passage).toMatch(/refund/);
  });

  it('creates an API key that works on /api/v1/query', async () => {
    const key = structured<{ apiKey: string; keyId: string; allowedDomains: string[]; queryEndpoint: string }>(
      await client.callTool({ name: 'create_api_key', arguments: { ragId, name: 'site', allowedDomains: ['shop.example.com'] } }),
    );
    expect(key.apiKey).toMatch(/^gw_live_/);
    expect(key.allowedDomains).toEqual(['shop.example.com']);
    expect(key.queryEndpoint).toBe(`${server.baseUrl}/api/v1/query`);
    const response = await fetch(key.queryEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key.apiKey, origin: 'https://shop.example.com' },
      body: JSON.stringify({ ragId, query: 'Do you ship abroad?' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { grounded: boolean; sources: { sourceName: string }[] };
    expect(body.grounded).toBe(true);
    expect(body.sources[0]?.sourceName).toBe('FAQ');
  });

  it("reads the usage: a visitor's unanswered question with the words no record uses, as the REST report says", async () => {
    const key = structured<{ apiKey: string }>(await client.callTool({ name: 'create_api_key', arguments: { ragId, name: 'usage' } }));
    const question = 'Do you deliver to Greenland by dogsled?';
    const asked = await fetch(`${server.baseUrl}/api/v1/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key.apiKey },
      body: JSON.stringify({ ragId, query: question }),
    });
    expect(((await asked.json()) as { grounded: boolean }).grounded).toBe(false);
    type Usage = { totals: { queries: number; unanswered: number }; unanswered: { question: string; count: number; unknownWords: string[] }[]; limits: { queriesPerDay: number } };
    const usage = structured<Usage>(await client.callTool({ name: 'get_usage', arguments: { ragId } }));
    const listed = usage.unanswered.find((u) => u.question === question);
    expect(listed).toMatchObject({ count: 1 });
    expect(listed?.unknownWords).toContain('dogsled');
    expect(usage.totals.unanswered).toBeGreaterThanOrEqual(1);
    const viaApi = await fetch(`${server.baseUrl}/api/v1/knowledge-bases/${ragId}/usage`, { headers: { authorization: `Bearer ${agent.accessToken}` } });
    expect(((await viaApi.json()) as Usage).unanswered.find((u) => u.question === question)).toEqual(listed);

    // A visitor's "not helpful" on an answer comes with the records it cited, as the REST report says.
    const feedback = await fetch(`${server.baseUrl}/api/v1/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key.apiKey },
      body: JSON.stringify({ ragId, query: 'Is the answer right?', helpful: false, sources: ['rec_not_here'] }),
    });
    expect(feedback.status).toBe(204);
    type Feedback = { totals: { unhelpful: number }; feedback: { question: string; unhelpful: number; records: unknown[] }[] };
    const withFeedback = structured<Feedback>(await client.callTool({ name: 'get_usage', arguments: { ragId } }));
    expect(withFeedback.totals.unhelpful).toBe(1);
    expect(withFeedback.feedback).toMatchObject([{ question: 'Is the answer right?', unhelpful: 1, records: [] }]);
    const feedbackViaApi = await fetch(`${server.baseUrl}/api/v1/knowledge-bases/${ragId}/usage`, { headers: { authorization: `Bearer ${agent.accessToken}` } });
    expect(((await feedbackViaApi.json()) as Feedback).feedback).toEqual(withFeedback.feedback);

    // The agent takes both off the lists once dealt with, as the owner does on the Usage tab; any wording of the question matches.
    const dismissed = await client.callTool({ name: 'dismiss_usage_question', arguments: { ragId, list: 'feedback', question: 'is the answer right' } });
    expect(structured(dismissed)).toEqual({ dismissed: true, list: 'feedback', question: 'is the answer right' });
    await client.callTool({ name: 'dismiss_usage_question', arguments: { ragId, list: 'unanswered', question } });
    const cleared = structured<Usage & Feedback>(await client.callTool({ name: 'get_usage', arguments: { ragId } }));
    expect(cleared.feedback).toEqual([]);
    expect(cleared.unanswered.find((u) => u.question === question)).toBeUndefined();
    expect(cleared.totals.unhelpful).toBe(1);
    const again = await client.callTool({ name: 'dismiss_usage_question', arguments: { ragId, list: 'feedback', question: 'Is the answer right?' } });
    expect(again.isError).toBe(true);
    expect((again.content as { text: string }[])[0]?.text).toMatch(/^not_found:/);

    // A follow-up is listed with the question it leaned on, and taken off by both.
    const followUp = 'And by hot-air balloon?';
    const refused = await fetch(`${server.baseUrl}/api/v1/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key.apiKey },
      body: JSON.stringify({ ragId, query: followUp, conversation: [{ role: 'user', content: 'Do you ship abroad?' }, { role: 'assistant', content: 'Yes.' }] }),
    });
    expect(((await refused.json()) as { grounded: boolean }).grounded).toBe(false);
    type Listed = { unanswered: { question: string; askedAfter?: string }[] };
    expect(structured<Listed>(await client.callTool({ name: 'get_usage', arguments: { ragId } })).unanswered).toContainEqual(
      expect.objectContaining({ question: followUp, askedAfter: 'Do you ship abroad?' }),
    );
    const alone = await client.callTool({ name: 'dismiss_usage_question', arguments: { ragId, list: 'unanswered', question: followUp } });
    expect(alone.isError).toBe(true);
    const both = await client.callTool({ name: 'dismiss_usage_question', arguments: { ragId, list: 'unanswered', question: followUp, askedAfter: 'do you ship abroad' } });
    expect(structured(both)).toEqual({ dismissed: true, list: 'unanswered', question: followUp, askedAfter: 'do you ship abroad' });
    expect(structured<Listed>(await client.callTool({ name: 'get_usage', arguments: { ragId } })).unanswered.map((u) => u.question)).not.toContain(followUp);

    const missing = await client.callTool({ name: 'get_usage', arguments: { ragId: 'kb_nosuchknowledgebase0000000' } });
    expect(missing.isError).toBe(true);
    expect((missing.content as { text: string }[])[0]?.text).toMatch(/^not_found:/);
  });

  it('creates a publishable widget key that the owner sees again in the key list; a secret key stays hidden', async () => {
    const made = async (publishable?: boolean) =>
      structured<{ apiKey: string; keyId: string; publishable: boolean }>(
        await client.callTool({ name: 'create_api_key', arguments: { ragId, allowedDomains: ['shop.example.com'], ...(publishable === undefined ? {} : { publishable }) } }),
      );
    const [widget, secret] = [await made(true), await made()];
    expect([widget.publishable, secret.publishable]).toEqual([true, false]);
    const listed = await fetch(`${server.baseUrl}/api/v1/knowledge-bases/${ragId}/keys`, { headers: { authorization: `Bearer ${agent.accessToken}` } });
    const items = ((await listed.json()) as { items: { keyId: string; apiKey?: string }[] }).items;
    expect(items.find((k) => k.keyId === widget.keyId)?.apiKey).toBe(widget.apiKey);
    expect(items.find((k) => k.keyId === secret.keyId)).not.toHaveProperty('apiKey');
  });
});

const bigText = Array.from(
  { length: 12 },
  (_, i) => `Fact ${i}: the warehouse number ${i} stores ${i * 7 + 3} crates of apples, pears and plums for the long winter season ahead of us.`,
).join('\n\n');

describe('tool errors', () => {
  it.each([
    ['an unknown knowledge base', 'query_knowledge_base', { ragId: 'kb_nope', query: 'hello' }, /^not_found: /],
    ['a whitespace-only question', 'query_knowledge_base', { ragId: 'RAG', query: '   ' }, /^validation_failed: query must be 1 to 4000/],
    ['content over the record quota', 'add_records', { ragId: 'RAG', name: 'big', content: bigText }, /^quota_exceeded: .*\(needed=\d+, available=5/],
    ['invalid JSON content', 'add_records', { ragId: 'RAG', name: 'bad.json', format: 'json', content: '[{"a": 1,}]' }, /^invalid_json: /],
    ['a bad whitelist entry', 'create_api_key', { ragId: 'RAG', allowedDomains: ['not a domain'] }, /^validation_failed: "not a domain" is not a domain/],
    ['a third knowledge base', 'create_knowledge_base', { botName: 'Three' }, /^kb_limit_reached: /],
  ])('reports %s as an MCP tool error', async (_name, tool, args, message) => {
    if (tool === 'create_knowledge_base') await client.callTool({ name: 'create_knowledge_base', arguments: { botName: 'Two' } });
    const resolved = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, v === 'RAG' ? ragId : v]));
    const result = await client.callTool({ name: tool, arguments: resolved });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]?.text).toMatch(message);
  });

  it('refuses arguments that do not match the schema, and unknown tools', async () => {
    const bad = await client.callTool({ name: 'add_records', arguments: { ragId, name: 'x', content: 'y', format: 'pdf' } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]?.text).toMatch(/Input validation error/);
    const unknown = await client.callTool({ name: 'drop_tables', arguments: {} });
    expect(unknown.isError).toBe(true);
  });

  it('keeps other accounts out: their knowledge bases are not found', async () => {
    const other = await registerAgent(server);
    const otherClient = await connectMcp(server, other.accessToken);
    try {
      for (const [tool, args] of [
        ['query_knowledge_base', { ragId, query: 'opening hours' }],
        ['list_records', { ragId }],
        ['add_records', { ragId, name: 'x', content: 'Intruder text here.' }],
        ['create_api_key', { ragId }],
        ['get_knowledge_base', { ragId }],
        ['update_knowledge_base', { ragId, fallbackMessage: 'Hijacked' }],
        ['delete_knowledge_base', { ragId }],
      ] as const) {
        const result = await otherClient.callTool({ name: tool, arguments: args });
        expect(result.isError, tool).toBe(true);
        expect((result.content as { text: string }[])[0]?.text, tool).toMatch(/^not_found: /);
      }
      expect(structured<{ knowledgeBases: unknown[] }>(await otherClient.callTool({ name: 'list_knowledge_bases', arguments: {} })).knowledgeBases).toEqual([]);
    } finally {
      await otherClient.close();
    }
  });
});

describe('utilities', () => {
  it('lists the server-side utilities and runs one', async () => {
    const { utilities } = structured<{ utilities: { id: string; inputSchema: object }[] }>(await client.callTool({ name: 'list_utilities', arguments: {} }));
    expect(utilities.map((u) => u.id)).toEqual(expect.arrayContaining(['json-format', 'base64', 'hash', 'uuid', 'word-count', 'url-encode']));
    const run = structured<{ id: string; output: { result: string } }>(
      await client.callTool({ name: 'run_utility', arguments: { id: 'base64', input: { mode: 'encode', text: 'héllo' } } }),
    );
    expect(run).toEqual({ id: 'base64', output: { result: 'aMOpbGxv' } });
  });

  it('reports bad utility input as a tool error naming the field', async () => {
    const unknown = await client.callTool({ name: 'run_utility', arguments: { id: 'nope', input: {} } });
    expect((unknown.content as { text: string }[])[0]?.text).toMatch(/^not_found: /);
    const invalid = await client.callTool({ name: 'run_utility', arguments: { id: 'uuid', input: { count: 1000 } } });
    expect((invalid.content as { text: string }[])[0]?.text).toMatch(/^validation_failed: \/input\/count must be <= 100/);
  });

  it('ends a run over TOOL_TIME_LIMIT_MS, as the HTTP endpoint does', async () => {
    const capped = await startServer({ TOOL_TIME_LIMIT_MS: '1' });
    const cappedClient = await connectMcp(capped, (await registerAgent(capped)).accessToken);
    try {
      // Formatting ~900 kB of structured JSON takes far longer than 1 ms.
      const text = JSON.stringify(Array.from({ length: 12_000 }, (_, i) => ({ id: i, tags: ['a', 'b', 'c'], nested: { deep: { value: i } } })));
      const slow = await cappedClient.callTool({ name: 'run_utility', arguments: { id: 'json-format', input: { text } } });
      expect(slow.isError).toBe(true);
      expect((slow.content as { text: string }[])[0]?.text).toMatch(/^time_limit_exceeded: /);
    } finally {
      await cappedClient.close();
      await capped.stop();
    }
  });
});

describe('deleting', () => {
  it('deletes a knowledge base, freeing the slot', async () => {
    const deleted = structured(await client.callTool({ name: 'delete_knowledge_base', arguments: { ragId } }));
    expect(deleted).toEqual({ deleted: true, ragId });
    const listed = structured<{ knowledgeBases: { ragId: string }[] }>(await client.callTool({ name: 'list_knowledge_bases', arguments: {} }));
    expect(listed.knowledgeBases.map((k) => k.ragId)).not.toContain(ragId);
  });
});
