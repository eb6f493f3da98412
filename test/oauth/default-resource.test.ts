/**
 * A sole default resource (issue 15 item 5): a client that names no `resource` but asks for the
 * `mcp` scope only (MCP clients from before RFC 8707 was required) gets an MCP token, which
 * /api/mcp accepts; any other scope still defaults to the management API. Trailing-slash forms
 * of our resources are the same resource, and `/api/mcp/` answers as `/api/mcp`.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initializeRequest } from '../mcp/helpers.js';
import { type CodeFlow, startCodeFlow } from './code-flow.js';

let flow: CodeFlow;
beforeAll(async () => {
  flow = await startCodeFlow();
});
afterAll(() => flow?.server.stop());

const audienceOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()).aud as string;
const mcp = (token: string | undefined, path = '/api/mcp') =>
  fetch(`${flow.server.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(initializeRequest),
  });

describe('a token request without resource', () => {
  it('gets the MCP audience when the scope is only mcp, and /api/mcp accepts the token', async () => {
    const { tokens } = await flow.tokensFor({ scope: 'mcp' });
    expect(audienceOf(tokens.access_token)).toBe(`${flow.server.baseUrl}/api/mcp`);
    expect((await mcp(tokens.access_token)).status).toBe(200);
    expect((await flow.managementApi(tokens.access_token)).status).toBe(401);
    // Refreshing keeps the grant's audience.
    const refreshed = await oauth.processRefreshTokenResponse(
      flow.as,
      flow.client,
      await oauth.refreshTokenGrantRequest(flow.as, flow.client, oauth.None(), tokens.refresh_token as string, { [oauth.allowInsecureRequests]: true }),
    );
    expect(audienceOf(refreshed.access_token)).toBe(`${flow.server.baseUrl}/api/mcp`);
  });

  it('still gets the management API for any other scope (control)', async () => {
    const { tokens } = await flow.tokensFor({ scope: 'kb:read mcp' });
    expect(audienceOf(tokens.access_token)).toBe(`${flow.server.baseUrl}/api/v1`);
  });
});

describe('trailing slashes', () => {
  it('treats resource …/api/mcp/ as …/api/mcp', async () => {
    const { tokens } = await flow.tokensFor({ resource: `${flow.server.baseUrl}/api/mcp/` }, `${flow.server.baseUrl}/api/mcp/`);
    expect(audienceOf(tokens.access_token)).toBe(`${flow.server.baseUrl}/api/mcp`);
  });

  it('answers /api/mcp/ like /api/mcp: 401 with the challenge without a token, 200 with one', async () => {
    const anonymous = await mcp(undefined, '/api/mcp/');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain('resource_metadata=');
    const { tokens } = await flow.tokensFor({ scope: 'mcp' });
    const answered = await mcp(tokens.access_token, '/api/mcp/');
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { result?: { serverInfo?: unknown } }).result?.serverInfo).toBeDefined();
  });
});
