/**
 * Shared by the MCP and A2A tests: a server, agents with claimed credentials
 * (`/oauth/register` + `/oauth/claim`), narrowed tokens (refresh with a
 * smaller scope or audience), and an MCP SDK client that sends the token
 * with every request.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';
import type { TestServer } from '../support/server.js';

export interface Agent {
  clientId: string;
  accessToken: string;
  refreshToken: string;
  accountId: string;
}

async function postJson(baseUrl: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** An anonymous agent with its own new account and a bearer token for every API (optionally only `resource`). */
export async function registerAgent(server: TestServer, resource?: string): Promise<Agent> {
  const registered = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous', client_name: 'Test agent' });
  const claimed = await postJson(server.baseUrl, '/oauth/claim', { claim_id: registered.claim_id, ...(resource ? { resource } : {}) });
  const accessToken = claimed.access_token as string;
  const accountId = JSON.parse(Buffer.from(accessToken.split('.')[1] as string, 'base64url').toString()).sub as string;
  return { clientId: registered.client_id as string, accessToken, refreshToken: claimed.refresh_token as string, accountId };
}

/** A fresh access token of the agent's grant with a narrower scope and/or audience (refresh-token grant). */
export async function narrowedToken(server: TestServer, agent: Agent, params: { scope?: string; resource?: string }): Promise<string> {
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: agent.refreshToken, client_id: agent.clientId });
  if (params.scope) form.set('scope', params.scope);
  if (params.resource) form.set('resource', params.resource);
  const response = await fetch(`${server.baseUrl}/oauth/token`, { method: 'POST', body: form });
  const body = (await response.json()) as Record<string, string>;
  expect(response.status, JSON.stringify(body)).toBe(200);
  agent.refreshToken = body.refresh_token as string;
  return body.access_token as string;
}

export async function connectMcp(server: TestServer, token: string): Promise<Client> {
  const client = new Client({ name: 'groundwork-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/api/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/** POSTs one raw JSON-RPC message to /api/mcp with the transport's required headers. */
export function rawMcp(server: TestServer, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.baseUrl}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export const initializeRequest = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
};

export const faq = [
  'Q: What are your opening hours?',
  'A: We are open from 9am to 5pm, Monday to Friday. On Saturdays we open from 10am to 2pm.',
  '',
  'Q: Do you ship abroad?',
  'A: Yes, we ship to every country in the European Union within five working days.',
  '',
  'Q: How can I return a product?',
  'A: Send it back within 30 days with the receipt and we refund the full price.',
].join('\n');

/** structuredContent of a successful tool result, failing the test on a tool error. */
export function structured<T = Record<string, unknown>>(result: unknown): T {
  const r = result as { isError?: boolean; content?: { text?: string }[]; structuredContent?: T };
  if (r.isError) throw new Error(`tool error: ${r.content?.[0]?.text}`);
  return r.structuredContent as T;
}
