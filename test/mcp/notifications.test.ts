/**
 * What a tool call sends besides its result, through the official SDK client over loopback:
 * log messages (`logging/setLevel`, remembered for the account across requests and connections,
 * since the server keeps no session; nothing sensitive in them) and progress for a long
 * `run_utility` when the request carries a progressToken. With Redis, the level set through one
 * instance's store is seen through another's.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisAnswerCache } from '../../src/adapters/cache/redis.js';
import { McpLogLevels } from '../../src/agents/mcp/log-levels.js';
import { describeIf, redis } from '../support/requirements.js';
import { startServer, type TestServer } from '../support/server.js';
import { connectMcp, rawMcp, registerAgent, structured } from './helpers.js';

interface LogMessage {
  level: string;
  logger?: string;
  data: unknown;
}

let server: TestServer;
const clients: Client[] = [];

beforeAll(async () => {
  // Long enough for several progress ticks (one a second), short enough for a test.
  server = await startServer({ TOOL_TIME_LIMIT_MS: '3500' });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server?.stop();
});

async function connect(token: string): Promise<{ client: Client; messages: LogMessage[] }> {
  const client = await connectMcp(server, token);
  clients.push(client);
  const messages: LogMessage[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    messages.push(notification.params as LogMessage);
  });
  return { client, messages };
}

const callTool = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('logging', () => {
  it('sends no log messages before the account sets a level (and answers with plain JSON)', async () => {
    const agent = await registerAgent(server);
    const { client, messages } = await connect(agent.accessToken);
    structured(await client.callTool({ name: 'create_knowledge_base', arguments: { botName: 'Quiet' } }));
    expect(messages).toEqual([]);
    const raw = await rawMcp(server, callTool(7, 'list_knowledge_bases', {}), { authorization: `Bearer ${agent.accessToken}` });
    expect(raw.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('after logging/setLevel info, a call reports what it did — counts and ids, never the content', async () => {
    const agent = await registerAgent(server);
    const { client, messages } = await connect(agent.accessToken);
    expect(await client.setLoggingLevel('info')).toEqual({});
    const { knowledgeBase } = structured<{ knowledgeBase: { ragId: string } }>(await client.callTool({ name: 'create_knowledge_base', arguments: { botName: 'Loud' } }));
    const secretContent = 'Q: What is the door code?\nA: The door code is 4711-banana.';
    await client.callTool({ name: 'add_records', arguments: { ragId: knowledgeBase.ragId, name: 'Door', content: secretContent } });
    expect(messages).toEqual([
      { level: 'info', logger: 'groundwork', data: { message: 'knowledge base created', ragId: knowledgeBase.ragId } },
      { level: 'info', logger: 'groundwork', data: expect.objectContaining({ message: 'records added', ragId: knowledgeBase.ragId, added: 1, duplicate: 0, rejected: 0 }) },
    ]);
    expect(JSON.stringify(messages)).not.toMatch(/4711|banana|door code/i);
  });

  it('remembers the level for the account across connections and filters below it', async () => {
    const agent = await registerAgent(server);
    const first = await connect(agent.accessToken);
    await first.client.setLoggingLevel('warning');
    await first.client.close();
    // A new connection (a new initialize) of the same account: the stateless server still knows the level.
    const { client, messages } = await connect(agent.accessToken);
    structured(await client.callTool({ name: 'create_knowledge_base', arguments: { botName: 'Filtered' } }));
    const missing = await client.callTool({ name: 'get_knowledge_base', arguments: { ragId: 'kb_missing' } });
    expect(missing.isError).toBe(true);
    expect(messages).toEqual([{ level: 'warning', logger: 'groundwork', data: { message: 'get_knowledge_base refused: not_found', tool: 'get_knowledge_base', code: 'not_found' } }]);
  });

  it('keeps one account’s level to itself', async () => {
    const [loud, quiet] = await Promise.all([registerAgent(server), registerAgent(server)]);
    await (await connect(loud.accessToken)).client.setLoggingLevel('debug');
    const { client, messages } = await connect(quiet.accessToken);
    structured(await client.callTool({ name: 'create_knowledge_base', arguments: { botName: 'Other account' } }));
    expect(messages).toEqual([]);
  });
});

describe('progress', () => {
  const words = (step: number) => Array.from({ length: 20_000 }, (_, i) => `w${(i * step) % 9973}`).join(' ');

  it('reports a long run_utility while it waits and runs, with progress that only grows', { timeout: 60_000 }, async () => {
    const agent = await registerAgent(server);
    const { client } = await connect(agent.accessToken);
    const updates: Progress[] = [];
    // text-diff in word mode on two 20,000-word texts runs far past TOOL_TIME_LIMIT_MS (3.5 s), so it ends at the limit.
    const result = await client.callTool({ name: 'run_utility', arguments: { id: 'text-diff', input: { before: words(7), after: words(13), mode: 'word' } } }, undefined, {
      onprogress: (progress) => updates.push(progress),
      timeout: 60_000,
    });
    expect((result.content as { text: string }[])[0]?.text).toMatch(/^time_limit_exceeded: /);
    expect(updates[0]).toMatchObject({ progress: 0, message: expect.stringMatching(/waiting for a worker thread/) });
    const running = updates.filter((u) => /running/.test(u.message ?? ''));
    // The start, then at least one tick a second during a 3.5 s run.
    expect(running.length).toBeGreaterThanOrEqual(2);
    for (const update of running) expect(update.total).toBeGreaterThanOrEqual(update.progress);
    for (let i = 1; i < updates.length; i++) expect(updates[i]?.progress).toBeGreaterThan(updates[i - 1]?.progress as number);
  });

  it('sends nothing extra to a call without a progressToken: a JSON answer', async () => {
    const agent = await registerAgent(server);
    const response = await rawMcp(server, callTool(9, 'run_utility', { id: 'uuid', input: {} }), { authorization: `Bearer ${agent.accessToken}` });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await response.json()) as { result: { isError?: boolean } }).result.isError).toBeUndefined();
  });
});

describeIf(redis, 'log levels in Redis', () => {
  const prefix = `gw:cache:test-${randomUUID()}:`;
  const caches: RedisAnswerCache[] = [];
  afterAll(async () => {
    await Promise.all(caches.map((cache) => cache.close()));
  });

  it('a level set through one instance is seen by another', async () => {
    const [a, b] = [0, 1].map(() => {
      const cache = new RedisAnswerCache(process.env.REDIS_URL as string, { keyPrefix: prefix });
      caches.push(cache);
      return new McpLogLevels(cache);
    }) as [McpLogLevels, McpLogLevels];
    expect(await b.get('acc_shared')).toBeUndefined();
    await a.set('acc_shared', 'notice');
    expect(await b.get('acc_shared')).toBe('notice');
  });
});
