/**
 * One agent card, two protocol versions: `@a2a-js/sdk` 0.3 (the `a2a-sdk-v03` alias) and 1.x each
 * read /.well-known/agent-card.json as they do in the wild, get the card of their version
 * (decided by the `A2A-Version` header each one sends, or does not), build a client from it and
 * get an answer. The card varies on that header, with its own ETag per version.
 */
import { randomUUID } from 'node:crypto';
import { AgentCard } from '@a2a-js/sdk';
import { ClientFactory as ClientFactoryV1, ClientFactoryOptions as OptionsV1, DefaultAgentCardResolver as ResolverV1 } from '@a2a-js/sdk/client';
import type { Message as MessageV03, Task as TaskV03 } from 'a2a-sdk-v03';
import { ClientFactory as ClientFactoryV03, ClientFactoryOptions as OptionsV03, DefaultAgentCardResolver as ResolverV03 } from 'a2a-sdk-v03/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPart } from '../../src/agents/a2a/executor.js';
import { type Agent, registerAgent } from '../mcp/helpers.js';
import { startServer, type TestServer } from '../support/server.js';
import { answerOf, knowledgeBase, request } from './helpers.js';

let server: TestServer;
let agent: Agent;
let ragId: string;
let cardUrl: string;
let endpoint: string;

beforeAll(async () => {
  server = await startServer();
  agent = await registerAgent(server);
  ragId = await knowledgeBase(server, agent, 'Shop');
  cardUrl = `${server.baseUrl}/.well-known/agent-card.json`;
  endpoint = `${server.baseUrl}/api/v1/a2a`;
});
afterAll(() => server?.stop());

/** A fetch that records the headers of each request it makes, for the card resolvers. */
function recordingFetch() {
  const sent: Headers[] = [];
  const impl = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    sent.push(new Headers(init?.headers));
    return fetch(input, init);
  }) as typeof fetch;
  return { sent, impl };
}

describe('A2A 0.3 SDK', () => {
  it('reads the card without an A2A-Version header and gets the 0.3 form', async () => {
    const recorder = recordingFetch();
    const factory = new ClientFactoryV03(OptionsV03.createFrom(OptionsV03.default, { cardResolver: new ResolverV03({ fetchImpl: recorder.impl }) }));
    const client = await factory.createFromUrl(server.baseUrl);
    expect(recorder.sent).toHaveLength(1);
    expect(recorder.sent[0]?.has('a2a-version')).toBe(false);
    const card = await client.getAgentCard();
    expect(card).toMatchObject({ protocolVersion: '0.3.0', url: endpoint, preferredTransport: 'JSONRPC', additionalInterfaces: [{ url: endpoint, transport: 'JSONRPC' }] });
    expect(card.securitySchemes?.bearer).toMatchObject({ type: 'http', scheme: 'Bearer' });
    expect(card.security).toEqual([{ bearer: ['kb:read'] }, { oauth2: ['kb:read'] }]);
    expect(card.skills.map((s) => s.id)).toEqual(['answer-from-knowledge-base']);
  });

  it('sends message/send through the client built from the card and gets the answer', async () => {
    const client = await new ClientFactoryV03().createFromUrl(server.baseUrl);
    const result = await client.sendMessage(
      { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'Do you ship abroad?' }], metadata: { ragId } } },
      { serviceParameters: { Authorization: `Bearer ${agent.accessToken}` } },
    );
    expect(result.kind).toBe('task');
    const task = result as TaskV03;
    expect(task.status.state).toBe('completed');
    const answer = task.artifacts?.find((a) => a.artifactId === 'answer')?.parts.find((p) => p.kind === 'text');
    expect(answer?.kind === 'text' && answer.text).toMatch(/European Union.*\[1\]/);
  });

  it('gets a refusal as an agent message, in the 0.3 form', async () => {
    const client = await new ClientFactoryV03().createFromUrl(server.baseUrl);
    const result = await client.sendMessage(
      { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'Do you ship abroad?' }] } },
      { serviceParameters: { Authorization: `Bearer ${agent.accessToken}` } },
    );
    expect(result).toMatchObject({ kind: 'message', role: 'agent' });
    expect((result as MessageV03).parts.some((p) => p.kind === 'data')).toBe(true);
  });
});

describe('A2A 1.x SDK', () => {
  it('reads the card with A2A-Version: 1.0, gets the 1.0 form and an answer', async () => {
    const recorder = recordingFetch();
    const factory = new ClientFactoryV1(OptionsV1.createFrom(OptionsV1.default, { cardResolver: new ResolverV1({ fetchImpl: recorder.impl }) }));
    const client = await factory.createFromUrl(server.baseUrl);
    expect(recorder.sent[0]?.get('a2a-version')).toBe('1.0');
    const card = await client.getAgentCard();
    expect(card.supportedInterfaces[0]).toMatchObject({ url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
    const task = await client.sendMessage(request([textPart(`ragId: ${ragId}\nDo you ship abroad?`)]), {
      serviceParameters: { Authorization: `Bearer ${agent.accessToken}` },
    });
    expect('status' in task && answerOf(task).text).toMatch(/European Union.*\[1\]/);
  });
});

describe('on the wire', () => {
  const get = (headers: Record<string, string> = {}) => fetch(cardUrl, { headers });

  it('answers each version with its own card, varying on A2A-Version', async () => {
    const none = await get();
    const v03 = await get({ 'a2a-version': '0.3' });
    const v1 = await get({ 'a2a-version': '1.0' });
    for (const response of [none, v03, v1]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('vary')).toMatch(/(^|,\s*)A2A-Version(,|$)/i);
      expect(response.headers.get('content-type')).toBe('application/json');
    }
    const [cardNone, card03, card1] = (await Promise.all([none.json(), v03.json(), v1.json()])) as Record<string, unknown>[];
    expect(cardNone).toEqual(card03);
    expect(card03).toMatchObject({ protocolVersion: '0.3.0', url: endpoint });
    expect(card03).not.toHaveProperty('supportedInterfaces');
    expect(card1).toHaveProperty('supportedInterfaces');
    expect(card1).not.toHaveProperty('url');
    expect(none.headers.get('etag')).toBe(v03.headers.get('etag'));
    expect(v1.headers.get('etag')).not.toBe(v03.headers.get('etag'));
    // Later 1.x versions get the 1.0 card, 0.x the 0.3 one.
    expect(await (await get({ 'a2a-version': '1.1' })).json()).toEqual(card1);
    expect(await (await get({ 'a2a-version': '0.3.0' })).json()).toEqual(card03);
  });

  it('serves the 1.0 card exactly as the A2A SDK reads and writes it back (nothing dropped or renamed)', async () => {
    const served = (await (await get({ 'a2a-version': '1.0' })).json()) as Record<string, unknown>;
    expect(AgentCard.toJSON(AgentCard.fromJSON(served))).toEqual(served);
  });

  it('answers If-None-Match per version', async () => {
    const etag03 = (await get()).headers.get('etag') as string;
    const etag1 = (await get({ 'a2a-version': '1.0' })).headers.get('etag') as string;
    expect((await get({ 'if-none-match': etag03 })).status).toBe(304);
    expect((await get({ 'if-none-match': etag1 })).status).toBe(200);
    expect((await get({ 'if-none-match': etag1, 'a2a-version': '1.0' })).status).toBe(304);
  });

  it('answers a browser preflight for the A2A-Version header', async () => {
    const response = await fetch(cardUrl, {
      method: 'OPTIONS',
      headers: { origin: 'https://agent.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'a2a-version' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toMatch(/A2A-Version/i);
  });
});
