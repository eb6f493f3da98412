/**
 * Taking ownership of an anonymous agent on the claim page (issue 11): the
 * person chooses, in plain words, what the agent keeps. By default only the
 * knowledge bases it made — before the adoption and after — through every
 * credential it holds (bearer token, account key, MCP); the person's other
 * knowledge bases answer exactly as a stranger's do. "Everything in my
 * account" keeps the old behaviour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../api/helpers.js';
import { connectMcp } from '../mcp/helpers.js';
import { type ApiResponse, Client, signedInClient, type TestServer } from '../support/server.js';
import { hiddenField, idpKey, postForm, postJson, startOAuthServer } from './helpers.js';

let server: TestServer;

beforeAll(async () => {
  // The person's account holds its own knowledge base, the agent's and one more the agent makes.
  server = await startOAuthServer(await idpKey(), [], { MAX_KNOWLEDGE_BASES: '5' });
});
afterAll(() => server?.stop());

/** An anonymous agent that claimed an account API key (a long-lived bearer credential). */
async function anonymousAgent() {
  const registered = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous' });
  expect(registered.status).toBe(201);
  const claimed = await postJson(server.baseUrl, '/oauth/claim', { claim_id: registered.body.claim_id, credential_type: 'api_key' });
  expect(claimed.status).toBe(200);
  return { claimUri: registered.body.claim_uri as string, api: asBearer(claimed.body.api_key as string) };
}

function asBearer(credential: string) {
  const client = new Client(server.baseUrl);
  return (method: string, url: string, body?: unknown) => client.request(method, url, body, { authorization: `Bearer ${credential}` });
}

/** The person opens claim_uri signed in and submits the form, with `access` as chosen (absent: the preselected choice). */
async function adopt(claimUri: string, person: Client, access?: 'own' | 'account') {
  const page = await fetch(claimUri, { headers: { cookie: person.cookie } });
  const html = await page.text();
  const fields: Record<string, string> = { claim: hiddenField(html, 'claim'), csrf: person.csrfToken, action: 'adopt' };
  if (access) fields.access = access;
  const done = await postForm(server.baseUrl, '/claim', fields, { cookie: person.cookie });
  expect(done.status).toBe(200);
  return done.text;
}

const ragIds = (response: ApiResponse) => ((response.body as { items: { ragId: string }[] }).items ?? []).map((kb) => kb.ragId).sort();

/** A 404 problem without the per-request parts, to compare two refusals. */
function notFoundBody(response: ApiResponse): Record<string, unknown> {
  const { requestId: _requestId, instance: _instance, ...rest } = expectProblem(response, 404, (response.body as { code: string }).code);
  return rest;
}

describe('the consent page', () => {
  it('asks what the agent may use afterwards, in plain words, with "only what it made" preselected', async () => {
    const agent = await anonymousAgent();
    const person = await signedInClient(server.baseUrl);
    const html = await (await fetch(agent.claimUri, { headers: { cookie: person.cookie } })).text();
    expect(html).toContain('What may the agent use afterwards?');
    expect(html).toMatch(/<input type="radio" name="access" value="own" checked> <strong>Only what it made<\/strong>/);
    expect(html).toMatch(/<input type="radio" name="access" value="account"> <strong>Everything in my account<\/strong>/);
    expect(html).toContain('including the ones you made yourself');
    expect(html).not.toContain('as part of your account');
  });
});

describe('adopted with "only what it made" (the default)', () => {
  it("lets the agent's credentials reach its own knowledge bases, before and after, and none of the person's others", async () => {
    const agent = await anonymousAgent();
    const before = (await agent.api('POST', '/api/v1/knowledge-bases', { botName: 'Made before' })).body as { ragId: string };
    const person = await signedInClient(server.baseUrl);
    const personal = (await person.post('/api/v1/knowledge-bases', { botName: 'Mine' })).body as { ragId: string };
    const stranger = await signedInClient(server.baseUrl);
    const foreign = (await stranger.post('/api/v1/knowledge-bases', { botName: 'Not yours' })).body as { ragId: string };

    const done = await adopt(agent.claimUri, person);
    expect(done).toContain('can use only the knowledge bases it made');

    // The person sees the agent's knowledge base in their account.
    expect(ragIds(await person.get('/api/v1/knowledge-bases'))).toEqual([before.ragId, personal.ragId].sort());

    // The agent's account key: its own knowledge base, then one it makes afterwards, and nothing else.
    const after = await agent.api('POST', '/api/v1/knowledge-bases', { botName: 'Made after' });
    expect(after.status).toBe(201);
    const afterId = (after.body as { ragId: string }).ragId;
    expect(ragIds(await agent.api('GET', '/api/v1/knowledge-bases'))).toEqual([before.ragId, afterId].sort());
    expect(ragIds(await person.get('/api/v1/knowledge-bases'))).toEqual([before.ragId, afterId, personal.ragId].sort());
    expect((await agent.api('GET', `/api/v1/knowledge-bases/${before.ragId}`)).status).toBe(200);
    expect((await agent.api('POST', `/api/v1/knowledge-bases/${afterId}/keys`, { allowedDomains: ['shop.example'] })).status).toBe(201);

    // The person's own knowledge base answers exactly as a stranger's: no existence oracle.
    const attempts: [string, string, unknown?][] = [
      ['GET', ''],
      ['PATCH', '', { botName: 'Taken over' }],
      ['GET', '/sources'],
      ['GET', '/records'],
      ['GET', '/keys'],
      ['POST', '/keys', { allowedDomains: ['evil.example'] }],
      ['GET', '/usage'],
      ['DELETE', ''],
    ];
    for (const [method, path, body] of attempts) {
      const mine = await agent.api(method, `/api/v1/knowledge-bases/${personal.ragId}${path}`, body);
      const theirs = await agent.api(method, `/api/v1/knowledge-bases/${foreign.ragId}${path}`, body);
      expect({ method, path, status: mine.status }).toEqual({ method, path, status: 404 });
      expect(notFoundBody(mine), `${method} ${path}`).toEqual(notFoundBody(theirs));
    }
    // Nothing of the person's changed, and the key was not made.
    expect((await person.get(`/api/v1/knowledge-bases/${personal.ragId}`)).body).toMatchObject({ botName: 'Mine' });
    expect((await person.get<{ items: unknown[] }>(`/api/v1/knowledge-bases/${personal.ragId}/keys`)).body.items).toEqual([]);
  });

  it('holds for a bearer token and over MCP too', async () => {
    const registered = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous' });
    const claimed = await postJson(server.baseUrl, '/oauth/claim', { claim_id: registered.body.claim_id });
    const token = claimed.body.access_token as string;
    const api = asBearer(token);
    const own = (await api('POST', '/api/v1/knowledge-bases', { botName: 'Agent work' })).body as { ragId: string };
    const person = await signedInClient(server.baseUrl);
    const personal = (await person.post('/api/v1/knowledge-bases', { botName: 'Private' })).body as { ragId: string };
    await adopt(registered.body.claim_uri as string, person, 'own');

    expect(ragIds(await api('GET', '/api/v1/knowledge-bases'))).toEqual([own.ragId]);
    expect((await api('GET', `/api/v1/knowledge-bases/${personal.ragId}`)).status).toBe(404);

    const mcp = await connectMcp(server, token);
    try {
      const listed = (await mcp.callTool({ name: 'list_knowledge_bases', arguments: {} })).structuredContent as { knowledgeBases: { ragId: string }[] };
      expect(listed.knowledgeBases.map((kb) => kb.ragId)).toEqual([own.ragId]);
      const read = await mcp.callTool({ name: 'get_knowledge_base', arguments: { ragId: personal.ragId } });
      expect(read.isError).toBe(true);
      expect(JSON.stringify(read.content)).toContain('not_found');
    } finally {
      await mcp.close();
    }
  });
});

describe('adopted with "everything in my account"', () => {
  it("lets the agent reach the person's whole account, as the person chose", async () => {
    const agent = await anonymousAgent();
    const own = (await agent.api('POST', '/api/v1/knowledge-bases', { botName: 'Agent work' })).body as { ragId: string };
    const person = await signedInClient(server.baseUrl);
    const personal = (await person.post('/api/v1/knowledge-bases', { botName: 'Shared' })).body as { ragId: string };
    const done = await adopt(agent.claimUri, person, 'account');
    expect(done).toContain('can use everything in your account');
    expect(ragIds(await agent.api('GET', '/api/v1/knowledge-bases'))).toEqual([own.ragId, personal.ragId].sort());
    expect((await agent.api('GET', `/api/v1/knowledge-bases/${personal.ragId}`)).status).toBe(200);
  });
});
