/**
 * Client credentials (a confidential client registered by an account) and
 * jwt-bearer with an ID-JAG from a trusted issuer — and every way an ID-JAG
 * is refused — driven by oauth4webapi.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { expectOAuthError, type IdpKey, idpKey, insecure, mintIdJag, postForm, postJson } from './helpers.js';
import { jwtBearer, startWithServiceClient } from './service-client.js';

let server: TestServer;
let as: oauth.AuthorizationServer;
let key: IdpKey;
let agentAccount: string;
let service: oauth.Client;

const managementApi = (token: string) => fetch(`${server.baseUrl}/api/v1/knowledge-bases`, { headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  ({ server, as, key, agentAccount, service } = await startWithServiceClient());
});
afterAll(() => server?.stop());

const auth = () => oauth.ClientSecretBasic(service.client_secret as string);

describe('client credentials', () => {
  it('issues an access token acting for the account that registered the client', async () => {
    const response = await oauth.clientCredentialsGrantRequest(as, service, auth(), { scope: 'kb:read' }, insecure);
    const tokens = await oauth.processClientCredentialsResponse(as, service, response);
    expect(tokens.scope).toBe('kb:read');
    expect(tokens.refresh_token).toBeUndefined();
    const claims = await oauth.validateJwtAccessToken(
      as,
      new Request(server.baseUrl, { headers: { authorization: `Bearer ${tokens.access_token}` } }),
      `${server.baseUrl}/api/v1`,
      insecure,
    );
    expect(claims.sub).toBe(agentAccount);
    expect(claims.client_id).toBe(service.client_id);
    expect((await managementApi(tokens.access_token)).status).toBe(200);
  });

  it('also accepts client_secret_post, and refuses a wrong secret with 401 invalid_client', async () => {
    const post = await oauth.clientCredentialsGrantRequest(as, service, oauth.ClientSecretPost(service.client_secret as string), {}, insecure);
    expect(post.status).toBe(200);
    const wrong = await postForm(server.baseUrl, '/oauth/token', { grant_type: 'client_credentials', client_id: service.client_id, client_secret: 'nope' });
    expectOAuthError(wrong, 401, 'invalid_client');
    const both = await postForm(
      server.baseUrl,
      '/oauth/token',
      { grant_type: 'client_credentials', client_secret: service.client_secret as string },
      { authorization: `Basic ${Buffer.from(`${service.client_id}:${service.client_secret}`).toString('base64')}` },
    );
    expectOAuthError(both, 400, 'invalid_request');
  });

  it('refuses public clients, unknown grant types and a missing grant type', async () => {
    const agent = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous' });
    expectOAuthError(
      await postForm(server.baseUrl, '/oauth/token', { grant_type: 'client_credentials', client_id: agent.body.client_id as string }),
      401,
      'invalid_client',
    );
    expectOAuthError(await postForm(server.baseUrl, '/oauth/token', { grant_type: 'password', client_id: service.client_id }), 400, 'unsupported_grant_type');
    expectOAuthError(await postForm(server.baseUrl, '/oauth/token', { client_id: service.client_id }), 400, 'invalid_request');
    const repeated = new URLSearchParams([
      ['grant_type', 'client_credentials'],
      ['grant_type', 'client_credentials'],
    ]);
    expectOAuthError(await postForm(server.baseUrl, '/oauth/token', repeated), 400, 'invalid_request');
  });
});

describe('jwt-bearer with an ID-JAG', () => {
  const exchange = (assertion: string, extra: Record<string, string> = {}) =>
    oauth.genericTokenEndpointRequest(as, service, auth(), jwtBearer, { assertion, ...extra }, insecure);

  it('exchanges a valid ID-JAG for an access token for the identity (iss, sub)', async () => {
    const assertion = await mintIdJag(key, server.baseUrl, {
      clientId: service.client_id,
      subject: 'alice',
      claims: { scope: 'kb:read kb:write', resource: `${server.baseUrl}/api/v1` },
    });
    const tokens = await oauth.processGenericTokenEndpointResponse(as, service, await exchange(assertion));
    expect(tokens.scope).toBe('kb:read kb:write');
    expect(tokens.refresh_token).toBeUndefined();
    expect((await managementApi(tokens.access_token)).status).toBe(200);
    // The same identity again: the same account.
    const again = await oauth.processGenericTokenEndpointResponse(
      as,
      service,
      await exchange(await mintIdJag(key, server.baseUrl, { clientId: service.client_id, subject: 'alice' })),
    );
    const sub = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()).sub;
    expect(sub(again.access_token)).toBe(sub(tokens.access_token));
    expect(sub(again.access_token)).not.toBe(agentAccount);
  });

  it('lets a public agent client registered by ID-JAG exchange fresh ID-JAGs without a secret', async () => {
    const registered = await postJson(server.baseUrl, '/oauth/register', {
      identity_type: 'identity_assertion',
      assertion_type: 'urn:ietf:params:oauth:token-type:id-jag',
      assertion: await mintIdJag(key, server.baseUrl, { subject: 'bob' }),
    });
    const clientId = registered.body.client_id as string;
    const assertion = await mintIdJag(key, server.baseUrl, { subject: 'bob', clientId });
    const response = await postForm(server.baseUrl, '/oauth/token', { grant_type: jwtBearer, assertion, client_id: clientId });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    const withoutClientId = await postForm(server.baseUrl, '/oauth/token', {
      grant_type: jwtBearer,
      assertion: await mintIdJag(key, server.baseUrl, { subject: 'bob' }),
    });
    expectOAuthError(withoutClientId, 400, 'invalid_grant');
  });

  it('refuses an ID-JAG used twice (jti replay)', async () => {
    const assertion = await mintIdJag(key, server.baseUrl, { clientId: service.client_id });
    expect((await exchange(assertion)).status).toBe(200);
    const replay = await exchange(assertion);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/already used/) });
  });

  it.each([
    ['for another audience', { audience: 'https://other.example' }, /aud/],
    ['expired beyond the skew', { iat: Math.floor(Date.now() / 1000) - 600, exp: Math.floor(Date.now() / 1000) - 120 }, /expired/],
    ['issued in the future', { iat: Math.floor(Date.now() / 1000) + 600, exp: Math.floor(Date.now() / 1000) + 900 }, /future/],
    ['from an untrusted issuer', { issuer: 'https://untrusted.example' }, /not trusted/],
    ['with the wrong typ', { typ: 'JWT' }, /typ/],
    ['for another client', { clientId: 'cli_someone_else' }, /another client/],
  ])('refuses an ID-JAG %s', async (_name, options, reason) => {
    const assertion = await mintIdJag(key, server.baseUrl, { clientId: service.client_id, ...options });
    const response = await exchange(assertion);
    expect(response.status).toBe(400);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_grant');
    expect(body.error_description).toMatch(reason);
  });

  it('refuses an ID-JAG signed by a key the issuer does not publish', async () => {
    const stranger = await idpKey(key.kid);
    const assertion = await mintIdJag(key, server.baseUrl, { clientId: service.client_id, key: stranger });
    const body = (await (await exchange(assertion)).json()) as { error: string; error_description: string };
    expect(body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/signature/) });
  });

  it('keeps the grant within the scope and resource the ID-JAG names', async () => {
    const assertion = await mintIdJag(key, server.baseUrl, {
      clientId: service.client_id,
      claims: { scope: 'kb:read', resource: `${server.baseUrl}/api/mcp` },
    });
    const scoped = await exchange(assertion, { scope: 'kb:write' });
    expect(((await scoped.json()) as { error: string }).error).toBe('invalid_scope');
    const other = await mintIdJag(key, server.baseUrl, { clientId: service.client_id, claims: { resource: `${server.baseUrl}/api/mcp` } });
    const target = await exchange(other, { resource: `${server.baseUrl}/api/v1` });
    expect(((await target.json()) as { error: string }).error).toBe('invalid_target');
  });
});
