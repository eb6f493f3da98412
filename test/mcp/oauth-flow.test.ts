/**
 * The full MCP authorization flow with the SDK's own OAuth client
 * (OAuthClientProvider): the 401 challenge leads it to the protected-resource
 * metadata and our authorization server, it registers itself dynamically
 * (RFC 7591), sends a signed-in person to the consent page with PKCE and
 * `resource`, exchanges the code, and then works through the MCP server —
 * refreshing the access token when it is no longer accepted.
 */
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CodeFlow, startCodeFlow } from '../oauth/code-flow.js';
import { MemoryProvider } from '../oauth/mcp-provider.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { structured } from './helpers.js';

let flow: CodeFlow;
let mcpUrl: URL;
const provider = new MemoryProvider();

beforeAll(async () => {
  flow = await startCodeFlow();
  mcpUrl = new URL(`${flow.server.baseUrl}/api/mcp`);
});
afterAll(() => flow?.server.stop());

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()) as Record<string, unknown>;

describe('OAuth 2.1 through the MCP SDK client', () => {
  it('discovers, registers and asks for consent with PKCE, resource and the challenged scope', async () => {
    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.information?.client_id).toMatch(/^cli_/);
    const url = provider.authorizationUrl as URL;
    expect(`${url.origin}${url.pathname}`).toBe(`${flow.server.baseUrl}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: provider.information?.client_id,
      code_challenge_method: 'S256',
      redirect_uri: provider.redirectUrl,
      resource: mcpUrl.href,
      scope: 'mcp',
      state: 'state-1234567890',
    });
  });

  it('exchanges the code after consent and uses the MCP server as the person who consented', async () => {
    const redirect = await flow.consent(provider.authorizationUrl as URL);
    expect(redirect.searchParams.get('state')).toBe('state-1234567890');
    const code = redirect.searchParams.get('code') as string;
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await transport.finishAuth(code);
    const claims = claimsOf(provider.stored?.access_token as string);
    expect(claims.aud).toBe(mcpUrl.href);
    expect(String(claims.scope).split(' ')).toEqual(expect.arrayContaining(['kb:read', 'kb:write', 'tools:run', 'mcp']));

    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    try {
      const created = structured<{ knowledgeBase: { ragId: string } }>(await client.callTool({ name: 'create_knowledge_base', arguments: { botName: 'Consented' } }));
      // The knowledge base is the person's: the dashboard session sees it.
      const listed = await flow.person.get<{ items: { ragId: string }[] }>('/api/v1/knowledge-bases');
      expect(listed.body.items.map((kb) => kb.ragId)).toContain(created.knowledgeBase.ragId);
    } finally {
      await client.close();
    }
  });

  it('refreshes with the refresh token when the access token is refused', async () => {
    const before = provider.stored as OAuthTokens;
    // An access token the server no longer accepts (as after expiry): the client must use its refresh token.
    provider.stored = { ...before, access_token: 'expired.token.value' };
    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    try {
      expect(provider.stored.access_token).not.toBe('expired.token.value');
      expect(provider.stored.refresh_token).not.toBe(before.refresh_token);
      expect(structured<{ knowledgeBases: unknown[] }>(await client.callTool({ name: 'list_knowledge_bases', arguments: {} })).knowledgeBases).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
