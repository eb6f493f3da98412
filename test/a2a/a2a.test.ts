/**
 * The A2A endpoint through the official @a2a-js/sdk client: the agent card
 * at /.well-known/agent-card.json, blocking and streaming answers for each
 * way of naming the knowledge base, refusals (as agent messages), and
 * authentication; plus a v0.3 client's `message/send` on the wire.
 */
import { type Message, Role, type SendMessageRequest, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPart, textPart } from '../../src/agents/a2a/executor.js';
import { type Agent, narrowedToken, registerAgent } from '../mcp/helpers.js';
import { startServer, type TestServer } from '../support/server.js';
import { answerOf, knowledgeBase, request } from './helpers.js';

let server: TestServer;
let agent: Agent;
let client: Client;
let ragId: string;
let auth: { serviceParameters: Record<string, string> };
let endpoint: string;

beforeAll(async () => {
  server = await startServer({ QUERY_RATE_PER_MINUTE: '8', MAX_KNOWLEDGE_BASES: '5' });
  agent = await registerAgent(server);
  ragId = await knowledgeBase(server, agent, 'Shop');
  auth = { serviceParameters: { Authorization: `Bearer ${agent.accessToken}` } };
  endpoint = `${server.baseUrl}/api/v1/a2a`;
  client = await new ClientFactory().createFromUrl(server.baseUrl);
});
afterAll(() => server?.stop());

describe('agent card', () => {
  it('is an A2A 1.0 card the SDK client accepts, listing the JSON-RPC endpoint and streaming', async () => {
    const card = await client.getAgentCard();
    expect(card.supportedInterfaces[0]).toMatchObject({ url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.skills.map((s) => s.id)).toEqual(['answer-from-knowledge-base']);
    expect(client.protocolVersion).toBe('1.0');
  });

  it('is public and cacheable, with an ETag answered by 304', async () => {
    const v1 = { 'a2a-version': '1.0' };
    const response = await fetch(`${server.baseUrl}/.well-known/agent-card.json`, { headers: v1 });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    const card = (await response.json()) as Record<string, unknown>;
    for (const field of ['name', 'description', 'supportedInterfaces', 'version', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'skills']) {
      expect(card, field).toHaveProperty(field);
    }
    // The security it declares is the truth: a bearer token with kb:read, OAuth metadata that exists.
    expect(card.securitySchemes).toMatchObject({ bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } });
    const oauth = (card.securitySchemes as Record<string, { oauth2SecurityScheme?: { oauth2MetadataUrl: string } }>).oauth2?.oauth2SecurityScheme;
    expect((await fetch(oauth?.oauth2MetadataUrl as string)).status).toBe(200);
    const etag = response.headers.get('etag') as string;
    expect((await fetch(`${server.baseUrl}/.well-known/agent-card.json`, { headers: { ...v1, 'if-none-match': etag } })).status).toBe(304);
  });
});

describe('answers', () => {
  it.each([
    ['a first text line "ragId: …"', () => request([textPart(`ragId: ${ragId}\nDo you ship abroad?`)])],
    ['a data part {ragId, query}', () => request([dataPart({ ragId, query: 'Do you ship abroad?' })])],
    ['message metadata with a text question', () => request([textPart('Do you ship abroad?')], { ragId })],
  ])('answers a message naming the knowledge base by %s', async (_name, make) => {
    const result = await client.sendMessage(make(), auth);
    expect('status' in result).toBe(true);
    const task = result as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.metadata).toEqual({ ragId });
    const { text, data } = answerOf(task);
    expect(text).toMatch(/European Union.*\[1\]/);
    expect(data).toMatchObject({ answer: text, grounded: true, sources: [expect.objectContaining({ sourceName: 'FAQ' })] });
  });

  it('offers, beside a refusal, the records near the question in the data part', async () => {
    // A knowledge base of its own, so this question leaves the others' minute limit alone.
    const mugs = await knowledgeBase(server, agent, 'Mugs', [{ name: 'Blue mug', price: '12 EUR', description: 'A blue ceramic mug.' }]);
    const task = (await client.sendMessage(request([dataPart({ ragId: mugs, query: 'Is the blue mug dishwasher safe?' })]), auth)) as Task;
    const { data } = answerOf(task);
    expect(data).toMatchObject({ grounded: false, sources: [], suggestions: [{ title: 'Blue mug', recordId: expect.any(String) }] });
  });

  it('streams the task: submitted, working, answer chunks, the whole answer, completed', async () => {
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(request([textPart(`ragId: ${ragId}\nWhen are you open on Saturdays?`)]), auth)) events.push(event);
    const kinds = events.map((e) => e.payload?.$case);
    expect(kinds[0]).toBe('task');
    expect(kinds.at(-1)).toBe('statusUpdate');
    const states = events.flatMap((e) => (e.payload?.$case === 'statusUpdate' ? [e.payload.value.status?.state] : []));
    expect(states).toEqual([TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED]);
    const chunks = events.flatMap((e) => (e.payload?.$case === 'artifactUpdate' ? [e.payload.value] : []));
    // At least one streamed chunk (the built-in answerer sends its answer as one) and the whole answer.
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    const final = chunks.at(-1);
    expect(final).toMatchObject({ append: false, lastChunk: true });
    const streamed = chunks
      .slice(0, -1)
      .map((c) => c.artifact?.parts[0]?.content?.value)
      .join('');
    expect(final?.artifact?.parts[0]?.content?.value).toBe(streamed);
    expect(streamed).toMatch(/10am to 2pm/);
  });

  it('keeps tasks for GetTask, for their own account only', async () => {
    const task = (await client.sendMessage(request([textPart(`ragId: ${ragId}\nHow can I return a product?`)]), auth)) as Task;
    const again = await client.getTask({ tenant: '', id: task.id }, auth);
    expect(answerOf(again).text).toBe(answerOf(task).text);
    const stranger = await registerAgent(server);
    await expect(client.getTask({ tenant: '', id: task.id }, { serviceParameters: { Authorization: `Bearer ${stranger.accessToken}` } })).rejects.toThrow(/not found/i);
  });
});

describe('refusals are agent messages with a reason', () => {
  const refusal = async (req: SendMessageRequest, who = auth) => {
    const result = await client.sendMessage(req, who);
    expect('messageId' in result).toBe(true);
    const message = result as Message;
    expect(message.role).toBe(Role.ROLE_AGENT);
    return message.parts.find((p) => p.content?.$case === 'data')?.content?.value.error as { code: string; message: string; retryAfterMs?: number };
  };

  it('when no knowledge base is named', async () => {
    expect(await refusal(request([textPart('Do you ship abroad?')]))).toMatchObject({ code: 'validation_failed', message: expect.stringMatching(/ragId/) });
  });

  it('when the knowledge base is not the caller’s', async () => {
    const stranger = await registerAgent(server);
    const theirs = { serviceParameters: { Authorization: `Bearer ${stranger.accessToken}` } };
    expect(await refusal(request([textPart(`ragId: ${ragId}\nDo you ship abroad?`)]), theirs)).toMatchObject({ code: 'not_found' });
  });

  it('when there is no question', async () => {
    expect(await refusal(request([textPart(`ragId: ${ragId}`)]))).toMatchObject({ code: 'validation_failed' });
  });

  it('when the knowledge base has used its queries for the minute, with retryAfterMs', async () => {
    const other = await knowledgeBase(server, agent, 'Limited');
    for (let i = 0; i < 8; i++) await client.sendMessage(request([textPart(`ragId: ${other}\nQuestion ${i} about shipping?`)]), auth);
    const refused = await refusal(request([textPart(`ragId: ${other}\nOne more about shipping?`)]));
    expect(refused).toMatchObject({ code: 'rate_limited', retryAfterMs: expect.any(Number) });
  });
});

describe('authentication', () => {
  const rpc = (headers: Record<string, string>, body: unknown = { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: {} }) =>
    fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers }, body: JSON.stringify(body) });

  it('refuses a call without a token, through the SDK client and on the wire', async () => {
    await expect(client.sendMessage(request([textPart(`ragId: ${ragId}\nDo you ship abroad?`)]))).rejects.toThrow(/401/);
    const response = await rpc({});
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource/api/v1", scope="kb:read"`,
    );
  });

  it('refuses a token for the MCP resource only, and one without kb:read', async () => {
    const mcpOnly = await registerAgent(server, `${server.baseUrl}/api/mcp`);
    const wrongAudience = await rpc({ authorization: `Bearer ${mcpOnly.accessToken}` });
    expect(wrongAudience.status).toBe(401);
    expect(wrongAudience.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    const writeOnly = await narrowedToken(server, await registerAgent(server), { scope: 'kb:write' });
    const noRead = await rpc({ authorization: `Bearer ${writeOnly}` });
    expect(noRead.status).toBe(403);
    expect(noRead.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", .*scope="kb:read"$/);
  });

  it('answers an unsupported A2A-Version with a JSON-RPC error', async () => {
    const response = await rpc({ authorization: `Bearer ${agent.accessToken}`, 'a2a-version': '2.0' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/version/i);
  });
});

describe('on the wire', () => {
  it('answers the SendMessage example of docs/agents.md', async () => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent.accessToken}`, 'a2a-version': '1.0', 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: `ragId: ${ragId}\nDo you ship abroad?` }] } },
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { task: { status: { state: string }; artifacts: { parts: { text?: string; data?: unknown }[] }[] } } };
    expect(body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(body.result.task.artifacts[0]?.parts[0]?.text).toMatch(/European Union.*\[1\]/);
    expect(body.result.task.artifacts[0]?.parts[1]?.data).toMatchObject({ grounded: true });
  });
});

describe('A2A 0.3 clients', () => {
  it('answers message/send without an A2A-Version header', async () => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${agent.accessToken}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'message/send',
        params: { message: { kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text: 'Do you ship abroad?' }], metadata: { ragId } } },
      }),
    });
    const body = (await response.json()) as { id: number; result: { kind: string; status: { state: string }; artifacts: { parts: { kind: string; text?: string }[] }[] } };
    expect(body.id).toBe(7);
    expect(body.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    expect(body.result.artifacts[0]?.parts[0]?.text).toMatch(/European Union/);
  });
});
