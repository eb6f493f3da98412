/**
 * Connected agents, for people (issue 15, item 7): the signed-in person lists the OAuth clients
 * holding grants for their account (authorised through the real OAuth flow with oauth4webapi),
 * their account API keys and the anonymous agents they adopted, and revokes each; what is revoked
 * is refused on its next use (refresh token, access token, account key). Another account's ids
 * are 404, exactly like unknown ones. Session only, CSRF on writes.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectedAgents } from '../../src/sdk/management.js';
import { expectProblem } from '../api/helpers.js';
import { connectMcp } from '../mcp/helpers.js';
import { type ApiResponse, Client, signedInClient } from '../support/server.js';
import { type CodeFlow, startCodeFlow } from './code-flow.js';
import { hiddenField, insecure, postForm, postJson } from './helpers.js';

const base = '/api/v1/account/connected-agents';
let flow: CodeFlow;

beforeAll(async () => {
  flow = await startCodeFlow();
});
afterAll(() => flow?.server.stop());

const listOf = async (person: Client) => {
  const response = await person.get<ConnectedAgents>(base);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return response.body;
};

async function refresh(refreshToken: string) {
  return oauth.processRefreshTokenResponse(flow.as, flow.client, await oauth.refreshTokenGrantRequest(flow.as, flow.client, oauth.None(), refreshToken, insecure));
}

/** The OAuth error a refused refresh answers with. */
async function refreshError(refreshToken: string): Promise<string> {
  try {
    await refresh(refreshToken);
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError) return error.error;
    throw error;
  }
  return 'accepted';
}

/** An anonymous agent that claimed `credential`, adopted by `person` with `access`. */
async function adoptedAgent(person: Client, credential: 'api_key' | 'bearer_token', access: 'own' | 'account' = 'own') {
  const { baseUrl } = flow.server;
  const registered = await postJson(baseUrl, '/oauth/register', { identity_type: 'anonymous', client_name: 'Night crawler' });
  const claimed = await postJson(baseUrl, '/oauth/claim', { claim_id: registered.body.claim_id, credential_type: credential });
  expect(claimed.status).toBe(200);
  const page = await fetch(registered.body.claim_uri as string, { headers: { cookie: person.cookie } });
  const html = await page.text();
  const done = await postForm(baseUrl, '/claim', { claim: hiddenField(html, 'claim'), csrf: person.csrfToken, action: 'adopt', access }, { cookie: person.cookie });
  expect(done.status).toBe(200);
  return { clientId: registered.body.client_id as string, ...claimed.body } as { clientId: string; api_key?: string; access_token?: string; refresh_token?: string };
}

const kbList = (credential: string) => fetch(`${flow.server.baseUrl}/api/v1/knowledge-bases`, { headers: { authorization: `Bearer ${credential}` } });

describe('happy path', () => {
  it('lists a client the person authorised through the OAuth flow, with its grant, and when it was last used', async () => {
    const { tokens } = await flow.tokensFor({ scope: 'kb:read' });
    const listed = await listOf(flow.person);
    const client = listed.clients.find((c) => c.clientId === flow.client.client_id);
    expect(client).toMatchObject({ clientName: 'Flow <test>', kind: 'dcr' });
    const grant = client?.grants.at(-1);
    expect(grant).toMatchObject({ kind: 'authorization_code', scope: 'kb:read', credentials: ['refresh_token'], lastUsedAt: null });
    expect(Date.parse(grant?.createdAt as string)).not.toBeNaN();

    // A use of the access token is recorded.
    expect((await flow.managementApi(tokens.access_token)).status).toBe(200);
    const used = (await listOf(flow.person)).clients.find((c) => c.clientId === flow.client.client_id)?.grants.find((g) => g.grantId === grant?.grantId);
    expect(used?.lastUsedAt).not.toBeNull();
    expect(listed.accountKeys).toEqual([]);
  });

  it('disconnecting the client refuses its refresh token and its access token at once, and drops it from the list', async () => {
    const { tokens } = await flow.tokensFor();
    expect((await flow.managementApi(tokens.access_token)).status).toBe(200);
    const revoked = await flow.person.delete(`${base}/clients/${encodeURIComponent(flow.client.client_id)}`);
    expect(revoked.status).toBe(204);

    expect((await flow.managementApi(tokens.access_token)).status).toBe(401);
    expect(await refreshError(tokens.refresh_token as string)).toBe('invalid_grant');
    expect((await listOf(flow.person)).clients.map((c) => c.clientId)).not.toContain(flow.client.client_id);
    // A second time there is nothing to disconnect.
    expectProblem(await flow.person.delete(`${base}/clients/${encodeURIComponent(flow.client.client_id)}`), 404, 'not_found');
    // The person may authorise it again: a new consent, a new grant.
    const again = await flow.tokensFor();
    expect((await flow.managementApi(again.tokens.access_token)).status).toBe(200);
  });

  it('revokes one grant and leaves the client’s other grant working', async () => {
    const first = await flow.tokensFor();
    const second = await flow.tokensFor();
    const client = (await listOf(flow.person)).clients.find((c) => c.clientId === flow.client.client_id);
    const grants = client?.grants ?? [];
    expect(grants.length).toBeGreaterThanOrEqual(2);
    // The newest grant is the second authorisation's.
    const newest = grants.at(-1)?.grantId as string;
    expect((await flow.person.delete(`${base}/grants/${newest}`)).status).toBe(204);
    expect((await flow.managementApi(second.tokens.access_token)).status).toBe(401);
    expect(await refreshError(second.tokens.refresh_token as string)).toBe('invalid_grant');
    expect((await flow.managementApi(first.tokens.access_token)).status).toBe(200);
    expect((await refresh(first.tokens.refresh_token as string)).access_token).toBeTruthy();
  });

  it('lists an adopted agent and its account key; revoking the key refuses it on the next request', async () => {
    const person = await signedInClient(flow.server.baseUrl);
    const agent = await adoptedAgent(person, 'api_key');
    expect((await kbList(agent.api_key as string)).status).toBe(200);
    const listed = await listOf(person);
    expect(listed.adoptedAgents).toEqual([
      expect.objectContaining({ clientId: agent.clientId, clientName: 'Night crawler', access: 'own', grants: [expect.objectContaining({ kind: 'claim', credentials: ['account_key'] })] }),
    ]);
    // Shown once, under adopted agents, not again among the clients.
    expect(listed.clients).toEqual([]);
    const [key] = listed.accountKeys;
    expect(key).toMatchObject({ clientId: agent.clientId, adoptedAgent: true, prefix: (agent.api_key as string).slice(0, key?.prefix.length) });
    expect(key?.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(agent.api_key as string);

    expect((await person.delete(`${base}/account-keys/${key?.keyId}`)).status).toBe(204);
    expect((await kbList(agent.api_key as string)).status).toBe(401);
    const after = await listOf(person);
    expect(after.accountKeys).toEqual([]);
    expect(after.adoptedAgents.map((a) => [a.clientId, a.grants])).toEqual([[agent.clientId, []]]);
  });

  it('revoking an adopted agent refuses its access token, its refresh token and its MCP calls', async () => {
    const person = await signedInClient(flow.server.baseUrl);
    const agent = await adoptedAgent(person, 'bearer_token', 'account');
    const mcp = await connectMcp(flow.server, agent.access_token as string);
    try {
      await mcp.listTools();
      expect((await person.delete(`${base}/adopted-agents/${encodeURIComponent(agent.clientId)}`)).status).toBe(204);
      await expect(mcp.listTools()).rejects.toThrow();
    } finally {
      await mcp.close();
    }
    const direct = await fetch(`${flow.server.baseUrl}/api/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(direct.status).toBe(401);
    expect((await kbList(agent.access_token as string)).status).toBe(401);
    const refreshed = await postForm(flow.server.baseUrl, '/oauth/token', { grant_type: 'refresh_token', refresh_token: agent.refresh_token as string, client_id: agent.clientId });
    expect({ status: refreshed.status, error: refreshed.body.error }).toEqual({ status: 400, error: 'invalid_grant' });
  });
});

describe('errors', () => {
  it('answers unknown ids with 404 not_found', async () => {
    for (const path of ['clients/cli_nope', 'grants/grt_nope', 'account-keys/akey_nope', 'adopted-agents/cli_nope']) {
      expectProblem(await flow.person.delete(`${base}/${path}`), 404, 'not_found', flow.server.baseUrl);
    }
  });
});

describe('security', () => {
  /** A 404 problem without its per-request parts. */
  const notFound = (response: ApiResponse) => {
    const { requestId: _r, instance: _i, detail: _d, ...rest } = expectProblem(response, 404, 'not_found');
    return rest;
  };

  it("refuses another account's client, grant, key and adopted agent exactly as unknown ones, and changes nothing", async () => {
    const owner = await signedInClient(flow.server.baseUrl);
    const stranger = await signedInClient(flow.server.baseUrl);
    const agent = await adoptedAgent(owner, 'api_key');
    const { tokens } = await flow.tokensFor({}, undefined);
    const mine = await listOf(flow.person);
    const grantId = mine.clients.find((c) => c.clientId === flow.client.client_id)?.grants.at(-1)?.grantId as string;
    const keyId = (await listOf(owner)).accountKeys[0]?.keyId as string;

    expect(await listOf(stranger)).toEqual({ clients: [], accountKeys: [], adoptedAgents: [] });
    const attempts = [
      `clients/${encodeURIComponent(flow.client.client_id)}`,
      `grants/${grantId}`,
      `account-keys/${keyId}`,
      `adopted-agents/${encodeURIComponent(agent.clientId)}`,
      `grants/${(await listOf(owner)).adoptedAgents[0]?.grants[0]?.grantId}`,
    ];
    const unknown = notFound(await stranger.delete(`${base}/grants/grt_unknown`));
    for (const path of attempts) expect(notFound(await stranger.delete(`${base}/${path}`)), path).toEqual(unknown);

    expect((await flow.managementApi(tokens.access_token)).status).toBe(200);
    expect((await kbList(agent.api_key as string)).status).toBe(200);
  });

  it('needs the session: 401 without one, 403 for a bearer credential of the account, 403 for a write without the CSRF token', async () => {
    const anonymous = new Client(flow.server.baseUrl);
    expectProblem(await anonymous.get(base), 401, 'unauthorized');
    expectProblem(await anonymous.delete(`${base}/grants/grt_x`), 401, 'unauthorized');

    const { tokens } = await flow.tokensFor();
    const asAgent = await fetch(`${flow.server.baseUrl}${base}`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(asAgent.status).toBe(403);
    expect(((await asAgent.json()) as { code: string }).code).toBe('forbidden');

    const grantId = (await listOf(flow.person)).clients.find((c) => c.clientId === flow.client.client_id)?.grants.at(-1)?.grantId as string;
    expectProblem(await flow.person.delete(`${base}/grants/${grantId}`, { 'x-csrf-token': 'wrong' }), 403, 'csrf_failed');
    expect((await flow.managementApi(tokens.access_token)).status).toBe(200);
  });
});
