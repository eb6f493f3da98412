/**
 * Who may use /api/mcp and how it refuses (standards.md §1, §4): the RFC 9728
 * challenge, invalid and foreign-audience tokens, scope step-up (403
 * insufficient_scope), revoked grants, the Origin rule, and the Streamable
 * HTTP transport's status codes for a stateless server.
 */
import { importJWK, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { type Agent, connectMcp, initializeRequest, narrowedToken, rawMcp, registerAgent, structured } from './helpers.js';

let server: TestServer;
let agent: Agent;
let metadataUrl: string;

beforeAll(async () => {
  server = await startServer();
  agent = await registerAgent(server);
  metadataUrl = `${server.baseUrl}/.well-known/oauth-protected-resource/api/mcp`;
});
afterAll(() => server?.stop());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const callTool = (id: number, name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('the 401 challenge', () => {
  it('names the protected-resource metadata and the scope when no token is sent', async () => {
    const response = await rawMcp(server, initializeRequest);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}", scope="mcp"`);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toMatchObject({ status: 401, code: 'unauthorized' });
    // The challenge is true: the document exists and names this resource and our issuer.
    const prm = (await (await fetch(metadataUrl)).json()) as Record<string, unknown>;
    expect(prm).toMatchObject({ resource: `${server.baseUrl}/api/mcp`, authorization_servers: [server.baseUrl] });
  });

  it('treats another scheme like no token', async () => {
    const response = await rawMcp(server, initializeRequest, { authorization: 'Basic dXNlcjpwYXNz' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}", scope="mcp"`);
  });

  it.each([
    ['a garbage token', 'not-a-jwt'],
    ['a malformed header', 'two words'],
    ['a forged JWT', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.sig'],
  ])('answers invalid_token for %s', async (_name, token) => {
    const response = await rawMcp(server, initializeRequest, bearer(token));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", error_description="The access token is invalid, expired, revoked or not meant for this resource.", resource_metadata="${metadataUrl}"`,
    );
  });

  it('refuses a token whose audience is another resource (RFC 8707), though that resource accepts it', async () => {
    const restOnly = await registerAgent(server, `${server.baseUrl}/api/v1`);
    const aud = JSON.parse(Buffer.from(restOnly.accessToken.split('.')[1] as string, 'base64url').toString()).aud;
    expect(aud).toBe(`${server.baseUrl}/api/v1`);
    const response = await rawMcp(server, initializeRequest, bearer(restOnly.accessToken));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    const rest = await fetch(`${server.baseUrl}/api/v1/knowledge-bases`, { headers: bearer(restOnly.accessToken) });
    expect(rest.status).toBe(200);
  });

  it('refuses the tokens of a revoked grant at once', async () => {
    const doomed = await registerAgent(server);
    expect((await rawMcp(server, initializeRequest, bearer(doomed.accessToken))).status).toBe(200);
    const revoked = await fetch(`${server.baseUrl}/oauth/revoke`, {
      method: 'POST',
      body: new URLSearchParams({ token: doomed.refreshToken, token_type_hint: 'refresh_token', client_id: doomed.clientId }),
    });
    expect(revoked.status).toBe(200);
    expect((await rawMcp(server, initializeRequest, bearer(doomed.accessToken))).status).toBe(401);
  });

  it('accepts an account API key claimed as credential_type api_key', async () => {
    const registered = (await (
      await fetch(`${server.baseUrl}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"identity_type":"anonymous"}' })
    ).json()) as { claim_id: string };
    const claimed = (await (
      await fetch(`${server.baseUrl}/oauth/claim`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ claim_id: registered.claim_id, credential_type: 'api_key' }),
      })
    ).json()) as { api_key: string };
    const client = await connectMcp(server, claimed.api_key);
    try {
      expect(structured(await client.callTool({ name: 'list_knowledge_bases', arguments: {} }))).toMatchObject({ knowledgeBases: [] });
    } finally {
      await client.close();
    }
  });
});

describe('scopes', () => {
  it('lets a kb:read token read but not write: 403 insufficient_scope names the missing scope', async () => {
    const readOnly = await narrowedToken(server, agent, { scope: 'kb:read', resource: `${server.baseUrl}/api/mcp` });
    const client = await connectMcp(server, readOnly);
    try {
      expect((await client.listTools()).tools.length).toBe(14);
      expect(structured(await client.callTool({ name: 'list_knowledge_bases', arguments: {} }))).toMatchObject({ knowledgeBases: [] });
      expect(structured(await client.callTool({ name: 'list_utilities', arguments: {} }))).toHaveProperty('utilities');
      await expect(client.callTool({ name: 'create_knowledge_base', arguments: { botName: 'Nope' } })).rejects.toThrow(/403/);
    } finally {
      await client.close();
    }
    const response = await rawMcp(server, callTool(2, 'create_knowledge_base', { botName: 'Nope' }), bearer(readOnly));
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", error_description="This tool needs the kb:write scope, which the access token does not carry.", resource_metadata="${metadataUrl}", scope="kb:write"`,
    );
    expect(await response.json()).toMatchObject({ status: 403, code: 'forbidden', requiredScope: 'kb:write' });
    const utility = await rawMcp(server, callTool(3, 'run_utility', { id: 'uuid', input: {} }), bearer(readOnly));
    expect(utility.status).toBe(403);
    expect(utility.headers.get('www-authenticate')).toMatch(/scope="tools:run"/);
    // Nothing was created.
    const all = await connectMcp(server, agent.accessToken);
    expect(structured(await all.callTool({ name: 'list_knowledge_bases', arguments: {} }))).toMatchObject({ knowledgeBases: [] });
    await all.close();
  });

  it('accepts a token whose only scope is the mcp umbrella', async () => {
    // parseScope always expands `mcp`; sign one with the server's own key to hold the umbrella alone.
    const [active] = await server.store.signingKeys.listSigningKeys('oauth');
    if (!active) throw new Error('no signing key');
    const real = JSON.parse(Buffer.from(agent.accessToken.split('.')[1] as string, 'base64url').toString());
    const umbrella = await new SignJWT({ ...real, scope: 'mcp' })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: active.kid })
      .sign(await importJWK(active.privateJwk as JWK, 'EdDSA'));
    const response = await rawMcp(server, callTool(4, 'run_utility', { id: 'hash', input: { text: '' } }), bearer(umbrella));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: { isError?: boolean } }).result.isError).toBeUndefined();
  });
});

describe('Origin (DNS rebinding)', () => {
  it.each([
    ['a foreign origin', 'https://evil.example', 403],
    ['the opaque origin', 'null', 403],
    ['our own origin', 'SELF', 200],
    ['a loopback origin in development', 'http://localhost:6274', 200],
  ])('answers %s (%s) with %i', async (_name, origin, status) => {
    const response = await rawMcp(server, initializeRequest, { ...bearer(agent.accessToken), origin: origin === 'SELF' ? server.baseUrl : origin });
    expect(response.status).toBe(status);
  });

  it('refuses a foreign origin even before authentication', async () => {
    const response = await rawMcp(server, initializeRequest, { origin: 'https://evil.example' });
    expect(response.status).toBe(403);
  });
});

describe('Streamable HTTP, stateless', () => {
  it('answers initialize with JSON and no session id', async () => {
    const response = await rawMcp(server, initializeRequest, bearer(agent.accessToken));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    const body = (await response.json()) as { result: { protocolVersion: string; serverInfo: { name: string } } };
    expect(body.result).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'groundwork' } });
  });

  it.each([
    ['a notification (202)', { jsonrpc: '2.0', method: 'notifications/initialized' }, {}, 202],
    ['no text/event-stream in Accept (406)', initializeRequest, { accept: 'application/json' }, 406],
    ['a text/plain body (415)', initializeRequest, { 'content-type': 'text/plain' }, 415],
    ['a body that is not JSON (400)', '{"jsonrpc":', {}, 400],
    ['an unsupported MCP-Protocol-Version (400)', { jsonrpc: '2.0', id: 5, method: 'tools/list' }, { 'mcp-protocol-version': '1999-01-01' }, 400],
  ])('answers %s with its status', async (_name, body, headers, status) => {
    const response = await rawMcp(server, body, { ...bearer(agent.accessToken), ...headers });
    expect(response.status).toBe(status);
  });

  it('answers GET and DELETE with 405 (no sessions, no server-initiated stream)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${server.baseUrl}/api/mcp`, { method, headers: { ...bearer(agent.accessToken), accept: 'text/event-stream' } });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
    expect((await fetch(`${server.baseUrl}/api/mcp`, { headers: { accept: 'text/event-stream' } })).status).toBe(401);
  });

  it('serves tools/list without initialize (each request stands alone)', async () => {
    const response = await rawMcp(server, { jsonrpc: '2.0', id: 9, method: 'tools/list' }, bearer(agent.accessToken));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(14);
  });
});
