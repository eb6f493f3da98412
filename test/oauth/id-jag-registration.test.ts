/**
 * Agent registration with an ID-JAG is bounded by the assertion (issue 15 item 2,
 * docs/agents.md), by the rules the jwt-bearer grant applies: the credentials' scope within the
 * assertion's `scope`, their audience within its `resource`, no `client_id` other than none (the
 * agent has no client yet), and nothing longer-lived than the assertion allows — an access token
 * only, no refresh token, no account key; the claim expires with the assertion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { expectOAuthError, type IdpKey, idpKey, mintIdJag, postForm, postJson, startOAuthServer } from './helpers.js';
import { jwtBearer } from './service-client.js';

let server: TestServer;
let key: IdpKey;

beforeAll(async () => {
  key = await idpKey();
  server = await startOAuthServer(key);
});
afterAll(() => server?.stop());

const idJagType = 'urn:ietf:params:oauth:token-type:id-jag';
const now = () => Math.floor(Date.now() / 1000);
const register = async (claims: Record<string, unknown>, options: { clientId?: string; iat?: number; exp?: number } = {}) =>
  postJson(server.baseUrl, '/oauth/register', {
    identity_type: 'identity_assertion',
    assertion_type: idJagType,
    assertion: await mintIdJag(key, server.baseUrl, { claims, ...options }),
  });
const claim = (body: Record<string, unknown>) => postJson(server.baseUrl, '/oauth/claim', body);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('an ID-JAG with scope=kb:read, living 60 s', () => {
  it('registers an agent whose credentials can read but not create a knowledge base, with no refresh token', async () => {
    const issuedAt = now();
    const registered = await register({ scope: 'kb:read' }, { iat: issuedAt, exp: issuedAt + 60 });
    expect(registered.status).toBe(201);
    expect(registered.body.credential_types_supported).toEqual(['bearer_token']);
    // The claim lives no longer than the assertion (plus the verifier's 60 s of skew).
    expect(Date.parse(registered.body.claim_expires_at as string)).toBeLessThanOrEqual((issuedAt + 120) * 1000);

    const credentials = await claim({ claim_id: registered.body.claim_id });
    expect(credentials.status).toBe(200);
    expect(credentials.body).toMatchObject({ credential_type: 'bearer_token', scope: 'kb:read', token_type: 'Bearer' });
    expect(credentials.body.refresh_token).toBeUndefined();
    const token = credentials.body.access_token as string;
    expect((await fetch(`${server.baseUrl}/api/v1/knowledge-bases`, { headers: bearer(token) })).status).toBe(200);
    const created = await postJson(server.baseUrl, '/api/v1/knowledge-bases', { botName: 'Not allowed' }, bearer(token));
    expect(created.status).toBe(403);
  });

  it('refuses an account key for such an agent (it would never expire)', async () => {
    const registered = await register({ scope: 'kb:read' }, { iat: now(), exp: now() + 60 });
    expectOAuthError(await claim({ claim_id: registered.body.claim_id, credential_type: 'api_key' }), 400, 'invalid_request');
    // The claim is not spent by the refusal: the agent can still take its access token.
    expect((await claim({ claim_id: registered.body.claim_id })).status).toBe(200);
  });

  it('gives the agent a client that renews only through jwt-bearer with a fresh ID-JAG naming it, still within that ID-JAG', async () => {
    const registered = await register({ scope: 'kb:read' });
    const clientId = registered.body.client_id as string;
    const renewed = await postForm(server.baseUrl, '/oauth/token', {
      grant_type: jwtBearer,
      client_id: clientId,
      assertion: await mintIdJag(key, server.baseUrl, { clientId, claims: { scope: 'kb:read' } }),
    });
    expect(renewed.status).toBe(200);
    expect(renewed.body).toMatchObject({ scope: 'kb:read' });
    expect(renewed.body.refresh_token).toBeUndefined();
    expectOAuthError(await postForm(server.baseUrl, '/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: 'gw_rt_x' }), 400, 'unauthorized_client');
  });
});

describe('the assertion bounds audience and client', () => {
  it('keeps the tokens to the resource the ID-JAG names (with a trailing slash too)', async () => {
    const registered = await register({ resource: `${server.baseUrl}/api/mcp/` });
    expect(registered.status).toBe(201);
    expectOAuthError(await claim({ claim_id: registered.body.claim_id, resource: `${server.baseUrl}/api/v1` }), 400, 'invalid_target');
    const credentials = await claim({ claim_id: registered.body.claim_id });
    const token = credentials.body.access_token as string;
    const audience = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()).aud;
    expect(audience).toBe(`${server.baseUrl}/api/mcp`);
    expect((await fetch(`${server.baseUrl}/api/v1/knowledge-bases`, { headers: bearer(token) })).status).toBe(401);
  });

  it('refuses an ID-JAG for another resource or with no scope of ours', async () => {
    expectOAuthError(await register({ resource: 'https://elsewhere.example/api' }), 400, 'invalid_target');
    expectOAuthError(await register({ scope: 'calendar:read' }), 400, 'invalid_scope');
  });

  it('refuses an ID-JAG naming an unknown client_id, or a client that is already registered', async () => {
    const unknown = await register({}, { clientId: 'cli_doesNotExist' });
    expectOAuthError(unknown, 400, 'invalid_grant');
    expect(unknown.body.error_description).toMatch(/not registered here/);
    const existing = (await register({})).body.client_id as string;
    const again = await register({}, { clientId: existing });
    expectOAuthError(again, 400, 'invalid_grant');
    expect(again.body.error_description).toMatch(/jwt-bearer/);
  });

  it('refuses an expired ID-JAG', async () => {
    expectOAuthError(await register({}, { iat: now() - 400, exp: now() - 100 }), 400, 'invalid_grant');
  });
});
