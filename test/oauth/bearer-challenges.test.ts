/**
 * One bearer gate for every protected route (src/http/bearer-auth.ts): the
 * management API, the MCP server and the A2A endpoint answer a missing,
 * malformed, invalid and under-scoped token — and a credential sent twice —
 * with the same RFC 6750 challenge, always naming the RFC 9728 metadata
 * document of the resource (which exists and describes that resource).
 * `/oauth/register` uses the same gate for its optional initial access token.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, initializeRequest, narrowedToken, registerAgent } from '../mcp/helpers.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let agent: Agent;

interface Sent {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** node:http rather than fetch, which folds repeated header lines into one. */
function send(method: string, url: string, headers: [string, string | string[]][], body?: unknown): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method });
    for (const [name, value] of headers) request.setHeader(name, value);
    request.on('error', reject);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
      });
    });
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** The challenge's parameters in the order sent; fails unless the whole header is `Bearer k="v", k="v"…`. */
function challengeOf(response: Sent): [string, string][] {
  const header = response.headers['www-authenticate'];
  expect(header).toMatch(/^Bearer [a-z_]+="[^"]*"(, [a-z_]+="[^"]*")*$/);
  return [...String(header).matchAll(/([a-z_]+)="([^"]*)"/g)].map((m) => [m[1] as string, m[2] as string]);
}

interface Surface {
  name: string;
  /** The resource identifier tokens must name (RFC 8707) and the challenge's metadata describes. */
  resource: () => string;
  /** The scope a challenge without a token asks for. */
  askScope: string;
  /** A request the surface answers 2xx with a good token. */
  call: (authorization?: string | string[], query?: string) => Promise<Sent>;
  /** A token for this resource that lacks `missingScope`, and a request that needs it. */
  underScoped: () => Promise<Sent>;
  missingScope: string;
}

const headerLines = (authorization: string | string[] | undefined, extra: [string, string][]): [string, string | string[]][] =>
  authorization === undefined ? extra : [...extra, ['authorization', authorization]];

const mcpHeaders: [string, string][] = [
  ['content-type', 'application/json'],
  ['accept', 'application/json, text/event-stream'],
  ['mcp-protocol-version', '2025-11-25'],
];
const a2aHeaders: [string, string][] = [
  ['content-type', 'application/json'],
  ['a2a-version', '1.0'],
];
const a2aBody = { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'no-such-task' } };

const surfaces: Surface[] = [
  {
    name: 'the management API (/api/v1)',
    resource: () => `${server.baseUrl}/api/v1`,
    askScope: 'kb:read',
    call: (authorization, query = '') => send('GET', `${server.baseUrl}/api/v1/knowledge-bases${query}`, headerLines(authorization, [])),
    underScoped: async () => {
      const readOnly = await narrowedToken(server, agent, { scope: 'kb:read', resource: `${server.baseUrl}/api/v1` });
      return send('POST', `${server.baseUrl}/api/v1/knowledge-bases`, headerLines(`Bearer ${readOnly}`, [['content-type', 'application/json']]), { botName: 'Nope' });
    },
    missingScope: 'kb:write',
  },
  {
    name: 'the MCP server (/api/mcp)',
    resource: () => `${server.baseUrl}/api/mcp`,
    askScope: 'mcp',
    call: (authorization, query = '') => send('POST', `${server.baseUrl}/api/mcp${query}`, headerLines(authorization, mcpHeaders), initializeRequest),
    underScoped: async () => {
      const readOnly = await narrowedToken(server, agent, { scope: 'kb:read', resource: `${server.baseUrl}/api/mcp` });
      const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_knowledge_base', arguments: { botName: 'Nope' } } };
      return send('POST', `${server.baseUrl}/api/mcp`, headerLines(`Bearer ${readOnly}`, mcpHeaders), call);
    },
    missingScope: 'kb:write',
  },
  {
    name: 'the A2A endpoint (/api/v1/a2a)',
    resource: () => `${server.baseUrl}/api/v1`,
    askScope: 'kb:read',
    call: (authorization, query = '') => send('POST', `${server.baseUrl}/api/v1/a2a${query}`, headerLines(authorization, a2aHeaders), a2aBody),
    underScoped: async () => {
      const writeOnly = await narrowedToken(server, agent, { scope: 'kb:write', resource: `${server.baseUrl}/api/v1` });
      return send('POST', `${server.baseUrl}/api/v1/a2a`, headerLines(`Bearer ${writeOnly}`, a2aHeaders), a2aBody);
    },
    missingScope: 'kb:read',
  },
];

beforeAll(async () => {
  server = await startServer();
  agent = await registerAgent(server);
});
afterAll(() => server?.stop());

describe.each(surfaces)('$name', (surface) => {
  const metadataUrl = () => `${server.baseUrl}/.well-known/oauth-protected-resource${new URL(surface.resource()).pathname}`;

  /** A 401/403/400 problem document whose detail is the challenge's error_description, if any. */
  function expectProblem(response: Sent, status: number, code: string) {
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ status, code });
  }

  it('lets a good token through (control)', async () => {
    const response = await surface.call(`Bearer ${agent.accessToken}`);
    expect(response.status).toBe(200);
    expect(response.headers['www-authenticate']).toBeUndefined();
  });

  it.each([
    ['no Authorization header', undefined],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
  ])('answers %s with 401: resource_metadata and the scope to ask for, no error', async (_case, authorization) => {
    const response = await surface.call(authorization);
    expectProblem(response, 401, 'unauthorized');
    expect(challengeOf(response)).toEqual([
      ['resource_metadata', metadataUrl()],
      ['scope', surface.askScope],
    ]);
  });

  it.each([
    ['a malformed header (two credentials)', 'Bearer abc def'],
    ['a malformed header (a character outside b64token)', 'Bearer abc$def'],
    ['a malformed header (the scheme alone)', 'Bearer'],
    ['an invalid token', 'Bearer not-a-jwt'],
    ['an unknown account key', `Bearer gw_acct_${'a'.repeat(43)}`],
  ])('answers %s with 401 invalid_token', async (_case, authorization) => {
    const response = await surface.call(authorization);
    expectProblem(response, 401, 'unauthorized');
    const challenge = challengeOf(response);
    expect(challenge.map(([key]) => key)).toEqual(['error', 'error_description', 'resource_metadata']);
    expect(Object.fromEntries(challenge)).toMatchObject({ error: 'invalid_token', error_description: response.body.detail, resource_metadata: metadataUrl() });
  });

  it('answers a token for another resource with 401 invalid_token (RFC 8707 audience)', async () => {
    const other = surface.resource().endsWith('/api/mcp') ? `${server.baseUrl}/api/v1` : `${server.baseUrl}/api/mcp`;
    const elsewhere = await narrowedToken(server, agent, { resource: other });
    const response = await surface.call(`Bearer ${elsewhere}`);
    expectProblem(response, 401, 'unauthorized');
    expect(Object.fromEntries(challengeOf(response))).toMatchObject({ error: 'invalid_token', resource_metadata: metadataUrl() });
  });

  it('answers an under-scoped token with 403 insufficient_scope naming the missing scope', async () => {
    const response = await surface.underScoped();
    expectProblem(response, 403, 'forbidden');
    expect(response.body.requiredScope).toBe(surface.missingScope);
    expect(challengeOf(response)).toEqual([
      ['error', 'insufficient_scope'],
      ['error_description', response.body.detail],
      ['resource_metadata', metadataUrl()],
      ['scope', surface.missingScope],
    ]);
  });

  it.each([
    ['two Authorization headers', () => surface.call([`Bearer ${agent.accessToken}`, `Bearer ${agent.accessToken}`])],
    ['a token in the header and in the URL', () => surface.call(`Bearer ${agent.accessToken}`, `?access_token=${agent.accessToken}`)],
    ['a token in the URL only', () => surface.call(undefined, `?access_token=${agent.accessToken}`)],
  ])('answers %s with 400 invalid_request, though the token is good', async (_case, call) => {
    const response = await call();
    expectProblem(response, 400, 'bad_request');
    const challenge = challengeOf(response);
    expect(challenge.map(([key]) => key)).toEqual(['error', 'error_description', 'resource_metadata']);
    expect(Object.fromEntries(challenge)).toMatchObject({ error: 'invalid_request', resource_metadata: metadataUrl() });
  });

  it('names a metadata document that exists and describes this resource', async () => {
    const [, url] = challengeOf(await surface.call()).find(([key]) => key === 'resource_metadata') ?? [];
    const document = (await (await fetch(String(url))).json()) as Record<string, unknown>;
    expect(document).toMatchObject({ resource: surface.resource(), authorization_servers: [server.baseUrl] });
    expect(document.scopes_supported).toContain(surface.askScope);
  });
});

describe('/oauth/register: the optional initial access token', () => {
  const register = (authorization?: string) =>
    send('POST', `${server.baseUrl}/oauth/register`, headerLines(authorization, [['content-type', 'application/json']]), { identity_type: 'anonymous' });
  const rootMetadata = () => `${server.baseUrl}/.well-known/oauth-protected-resource`;

  it('registers without one (control)', async () => {
    expect((await register()).status).toBe(201);
  });

  it('refuses an invalid one with an RFC 6749 body and the challenge for the whole service', async () => {
    const response = await register('Bearer not-a-jwt');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
    expect(Object.fromEntries(challengeOf(response))).toMatchObject({ error: 'invalid_token', resource_metadata: rootMetadata() });
  });

  it('refuses one without kb:write with 403 insufficient_scope', async () => {
    const readOnly = await narrowedToken(server, agent, { scope: 'kb:read' });
    const response = await register(`Bearer ${readOnly}`);
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ error: 'invalid_token' });
    expect(Object.fromEntries(challengeOf(response))).toMatchObject({ error: 'insufficient_scope', scope: 'kb:write', resource_metadata: rootMetadata() });
  });

  it('accepts a kb:write token for either API: the registered client acts for its account', async () => {
    const mcpOnly = await narrowedToken(server, agent, { resource: `${server.baseUrl}/api/mcp` });
    const metadata = { grant_types: ['client_credentials'], token_endpoint_auth_method: 'client_secret_post' };
    const response = await send('POST', `${server.baseUrl}/oauth/register`, [['content-type', 'application/json'], ['authorization', `Bearer ${mcpOnly}`]], metadata);
    expect(response.status).toBe(201);
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: String(response.body.client_id), client_secret: String(response.body.client_secret) });
    const issued = (await (await fetch(`${server.baseUrl}/oauth/token`, { method: 'POST', body: form })).json()) as { access_token: string };
    expect(JSON.parse(Buffer.from(issued.access_token.split('.')[1] as string, 'base64url').toString()).sub).toBe(agent.accountId);
  });
});
