/**
 * Knowledge bases and records as MCP resources, the ask_knowledge_base prompt and argument
 * completion, through the official SDK client over loopback: what one account lists and reads,
 * paging, templates, and that another account's knowledge base is neither listed, read nor
 * completed. Also the capabilities the server declares (no listChanged it never sends).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { type Agent, connectMcp, narrowedToken, rawMcp, registerAgent, structured } from './helpers.js';

let server: TestServer;
let owner: Agent;
let other: Agent;
let ownerClient: Client;
let otherClient: Client;
let ragId: string;
let smallRagId: string;
let otherRagId: string;

// 60 records (Q&A pairs are never merged): more than one page of resources/list (50).
const manyRecords = Array.from({ length: 60 }, (_, i) => `Q: What is in aisle ${i}?\nA: The warehouse aisle ${i} stores item kind ${i * 7}.`).join('\n\n');

async function createKb(client: Client, botName: string, content?: string): Promise<string> {
  const created = structured<{ knowledgeBase: { ragId: string } }>(await client.callTool({ name: 'create_knowledge_base', arguments: { botName } }));
  if (content) {
    const added = structured<{ added: number }>(
      await client.callTool({ name: 'add_records', arguments: { ragId: created.knowledgeBase.ragId, name: `${botName} facts`, content } }),
    );
    expect(added.added).toBeGreaterThan(0);
  }
  return created.knowledgeBase.ragId;
}

async function rpcError(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

beforeAll(async () => {
  server = await startServer({ MAX_RECORDS_PER_KB: '80' });
  [owner, other] = await Promise.all([registerAgent(server), registerAgent(server)]);
  [ownerClient, otherClient] = await Promise.all([connectMcp(server, owner.accessToken), connectMcp(server, other.accessToken)]);
  ragId = await createKb(ownerClient, 'Warehouse', manyRecords);
  smallRagId = await createKb(ownerClient, 'Opening hours', 'Q: When are you open?\nA: From 9 to 5 on weekdays.');
  otherRagId = await createKb(otherClient, 'Private notes', 'The secret launch date is in spring.');
}, 60_000);
afterAll(async () => {
  await ownerClient?.close();
  await otherClient?.close();
  await server?.stop();
});

describe('capabilities', () => {
  it('declares resources, prompts, completions and logging, and no listChanged or subscribe it never sends', () => {
    const capabilities = ownerClient.getServerCapabilities();
    expect(capabilities).toMatchObject({ resources: {}, prompts: {}, completions: {}, logging: {} });
    expect(capabilities?.tools?.listChanged).not.toBe(true);
    expect(capabilities?.resources?.listChanged).not.toBe(true);
    expect(capabilities?.resources?.subscribe).not.toBe(true);
    expect(capabilities?.prompts?.listChanged).not.toBe(true);
  });

  it("gives run_utility's input a schema: the ids as an enum, input an object pointing at list_utilities", async () => {
    const { tools } = await ownerClient.listTools();
    const run = tools.find((t) => t.name === 'run_utility');
    const id = run?.inputSchema.properties?.id as { enum?: string[] };
    expect(id.enum).toEqual(expect.arrayContaining(['json-format', 'base64', 'text-diff']));
    const input = run?.inputSchema.properties?.input as { type?: string; description?: string };
    expect(input.type).toBe('object');
    expect(input.description).toMatch(/list_utilities/);
  });
});

describe('resources', () => {
  it('lists the account’s knowledge bases, each followed by its records, page by page', async () => {
    const first = await ownerClient.listResources();
    expect(first.resources).toHaveLength(50);
    expect(first.nextCursor).toBeTruthy();
    const second = await ownerClient.listResources({ cursor: first.nextCursor as string });
    expect(second.nextCursor).toBeUndefined();
    const all = [...first.resources, ...second.resources];
    const uris = all.map((r) => r.uri);
    expect(new Set(uris).size).toBe(uris.length);
    expect(uris[0]).toBe(`groundwork://kb/${ragId}`);
    expect(all[0]).toMatchObject({ name: ragId, title: 'Warehouse', mimeType: 'application/json' });
    const warehouseRecords = uris.filter((u) => u.startsWith(`groundwork://kb/${ragId}/records/`));
    expect(warehouseRecords).toHaveLength(60);
    expect(uris).toContain(`groundwork://kb/${smallRagId}`);
    expect(uris.indexOf(`groundwork://kb/${smallRagId}`)).toBeGreaterThan(uris.indexOf(warehouseRecords[59] as string));
    expect(all.find((r) => r.uri.startsWith(`groundwork://kb/${smallRagId}/records/`))).toMatchObject({ mimeType: 'text/plain', title: 'When are you open?' });
    expect(uris.some((u) => u.includes(otherRagId))).toBe(false);
  });

  it('refuses a cursor it did not make with -32602', async () => {
    const error = await rpcError(ownerClient.listResources({ cursor: 'not-a-cursor' }));
    expect(error.code).toBe(ErrorCode.InvalidParams);
  });

  it('lists the two templates', async () => {
    const { resourceTemplates } = await ownerClient.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['groundwork://kb/{ragId}', 'groundwork://kb/{ragId}/records/{recordId}']);
  });

  it('reads a knowledge base as JSON and a record as text', async () => {
    const kb = await ownerClient.readResource({ uri: `groundwork://kb/${smallRagId}` });
    expect(kb.contents[0]).toMatchObject({ uri: `groundwork://kb/${smallRagId}`, mimeType: 'application/json' });
    expect(JSON.parse((kb.contents[0] as { text: string }).text)).toMatchObject({ ragId: smallRagId, botName: 'Opening hours', recordCount: 1 });

    const listed = await ownerClient.listResources();
    const recordUri = listed.resources.find((r) => r.uri.startsWith(`groundwork://kb/${ragId}/records/`))?.uri as string;
    const record = await ownerClient.readResource({ uri: recordUri });
    expect(record.contents[0]).toMatchObject({ uri: recordUri, mimeType: 'text/plain' });
    expect((record.contents[0] as { text: string }).text).toMatch(/The warehouse aisle \d+ stores item kind/);
  });

  it('answers -32002 for a URI that names nothing of the account', async () => {
    for (const uri of [`groundwork://kb/${ragId}/records/rec_missing`, 'groundwork://kb/kb_missing', 'https://example.com/x', 'groundwork://kb/../etc']) {
      const error = await rpcError(ownerClient.readResource({ uri }));
      expect(error.code, uri).toBe(-32002);
    }
  });

  it('never lists or reads another account’s knowledge base or records', async () => {
    const listed = await otherClient.listResources();
    expect(listed.resources.map((r) => r.uri)).toEqual([`groundwork://kb/${otherRagId}`, expect.stringMatching(new RegExp(`^groundwork://kb/${otherRagId}/records/`))]);
    const ownerRecord = (await ownerClient.listResources()).resources[1]?.uri as string;
    for (const uri of [`groundwork://kb/${ragId}`, ownerRecord]) {
      const error = await rpcError(otherClient.readResource({ uri }));
      expect(error.code, uri).toBe(-32002);
    }
    const otherRecord = listed.resources[1]?.uri as string;
    const error = await rpcError(ownerClient.readResource({ uri: otherRecord }));
    expect(error.code).toBe(-32002);
  });

  it('needs kb:read: a token without it gets 403 insufficient_scope before the server runs', async () => {
    const toolsOnly = await narrowedToken(server, owner, { scope: 'tools:run', resource: `${server.baseUrl}/api/mcp` });
    for (const [id, method, params] of [
      [1, 'resources/list', {}],
      [2, 'resources/read', { uri: `groundwork://kb/${ragId}` }],
    ] as const) {
      const response = await rawMcp(server, { jsonrpc: '2.0', id, method, params }, { authorization: `Bearer ${toolsOnly}` });
      expect(response.status, method).toBe(403);
      expect(response.headers.get('www-authenticate')).toMatch(/error="insufficient_scope".*scope="kb:read"/);
    }
    // Templates are a description of the server, not data: any valid token may list them.
    const templates = await rawMcp(server, { jsonrpc: '2.0', id: 3, method: 'resources/templates/list', params: {} }, { authorization: `Bearer ${toolsOnly}` });
    expect(templates.status).toBe(200);
  });
});

describe('prompts and completion', () => {
  it('lists ask_knowledge_base and fills it in with the knowledge base’s name', async () => {
    const { prompts } = await ownerClient.listPrompts();
    expect(prompts).toEqual([expect.objectContaining({ name: 'ask_knowledge_base', arguments: expect.arrayContaining([expect.objectContaining({ name: 'ragId', required: true })]) })]);
    const prompt = await ownerClient.getPrompt({ name: 'ask_knowledge_base', arguments: { ragId: smallRagId, question: 'When do you open?' } });
    const text = (prompt.messages[0]?.content as { text: string }).text;
    expect(text).toContain('query_knowledge_base');
    expect(text).toContain('"Opening hours"');
    expect(text).toContain('When do you open?');
  });

  it('refuses an unknown prompt, a missing argument and another account’s knowledge base with -32602', async () => {
    const requests: { name: string; arguments: Record<string, string> }[] = [
      { name: 'nope', arguments: {} },
      { name: 'ask_knowledge_base', arguments: { ragId: smallRagId } },
      { name: 'ask_knowledge_base', arguments: { ragId: otherRagId, question: 'What is the launch date?' } },
    ];
    for (const request of requests) {
      const error = await rpcError(ownerClient.getPrompt(request));
      expect(error.code, JSON.stringify(request)).toBe(ErrorCode.InvalidParams);
    }
  });

  it('completes ragId with the caller’s own knowledge bases only', async () => {
    const all = await ownerClient.complete({ ref: { type: 'ref/prompt', name: 'ask_knowledge_base' }, argument: { name: 'ragId', value: '' } });
    expect([...all.completion.values].sort()).toEqual([ragId, smallRagId].sort());
    const prefix = smallRagId.slice(0, smallRagId.length - 2);
    const some = await ownerClient.complete({ ref: { type: 'ref/resource', uri: 'groundwork://kb/{ragId}' }, argument: { name: 'ragId', value: prefix } });
    expect(some.completion.values).toContain(smallRagId);
    expect(some.completion.values).not.toContain(otherRagId);
    const others = await otherClient.complete({ ref: { type: 'ref/prompt', name: 'ask_knowledge_base' }, argument: { name: 'ragId', value: '' } });
    expect(others.completion.values).toEqual([otherRagId]);
  });

  it('completes recordId within the named knowledge base, and nothing in someone else’s', async () => {
    const ref = { type: 'ref/resource' as const, uri: 'groundwork://kb/{ragId}/records/{recordId}' };
    const own = await ownerClient.complete({ ref, argument: { name: 'recordId', value: '' }, context: { arguments: { ragId: smallRagId } } });
    expect(own.completion.values).toHaveLength(1);
    const foreign = await ownerClient.complete({ ref, argument: { name: 'recordId', value: '' }, context: { arguments: { ragId: otherRagId } } });
    expect(foreign.completion.values).toEqual([]);
  });

  it('refuses completion for an unknown prompt or template with -32602', async () => {
    const error = await rpcError(ownerClient.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'x' } }));
    expect(error.code).toBe(ErrorCode.InvalidParams);
    const template = await rpcError(ownerClient.complete({ ref: { type: 'ref/resource', uri: 'test://template/{id}' }, argument: { name: 'id', value: 'x' } }));
    expect(template.code).toBe(ErrorCode.InvalidParams);
  });
});
