/**
 * Token revocation (RFC 7009) and introspection (RFC 7662) with oauth4webapi:
 * who may see and revoke which tokens, and what revoking kills.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { expectOAuthError, insecure, postForm, postJson } from './helpers.js';
import { startWithServiceClient } from './service-client.js';

let server: TestServer;
let as: oauth.AuthorizationServer;
let agentToken: string;
let agentAccount: string;
let service: oauth.Client;

const managementApi = (token: string) => fetch(`${server.baseUrl}/api/v1/knowledge-bases`, { headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  ({ server, as, agentToken, agentAccount, service } = await startWithServiceClient());
});
afterAll(() => server?.stop());

const auth = () => oauth.ClientSecretBasic(service.client_secret as string);

describe('revocation and introspection', () => {
  it('introspects an active token for its client, and anything else as exactly {active:false}', async () => {
    const tokens = await oauth.processClientCredentialsResponse(as, service, await oauth.clientCredentialsGrantRequest(as, service, auth(), {}, insecure));
    const introspection = await oauth.processIntrospectionResponse(
      as,
      service,
      await oauth.introspectionRequest(as, service, auth(), tokens.access_token, insecure),
    );
    expect(introspection).toMatchObject({
      active: true,
      client_id: service.client_id,
      sub: agentAccount,
      iss: server.baseUrl,
      aud: `${server.baseUrl}/api/v1`,
      token_type: 'Bearer',
      scope: 'kb:read kb:write tools:run',
    });
    expect(typeof introspection.exp).toBe('number');
    const garbage = await oauth.introspectionRequest(as, service, auth(), 'not-a-token', insecure);
    expect(await garbage.json()).toEqual({ active: false });
  });

  it('shows the agent account’s own tokens to a client of that account, but not other accounts’ tokens', async () => {
    // The claimed token belongs to the same account as `service`.
    const own = await oauth.processIntrospectionResponse(as, service, await oauth.introspectionRequest(as, service, auth(), agentToken, insecure));
    expect(own.active).toBe(true);
    const stranger = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous' });
    const strangerToken = (await postJson(server.baseUrl, '/oauth/claim', { claim_id: stranger.body.claim_id })).body.access_token as string;
    expect(await (await oauth.introspectionRequest(as, service, auth(), strangerToken, insecure)).json()).toEqual({ active: false });
  });

  it('revokes an access token (and its grant); unknown tokens revoke nothing and still answer 200', async () => {
    const tokens = await oauth.processClientCredentialsResponse(as, service, await oauth.clientCredentialsGrantRequest(as, service, auth(), {}, insecure));
    expect((await managementApi(tokens.access_token)).status).toBe(200);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, service, auth(), tokens.access_token, insecure));
    expect((await managementApi(tokens.access_token)).status).toBe(401);
    const introspected = await oauth.processIntrospectionResponse(
      as,
      service,
      await oauth.introspectionRequest(as, service, auth(), tokens.access_token, insecure),
    );
    expect(introspected).toEqual({ active: false });
    expect((await oauth.revocationRequest(as, service, auth(), 'unknown-token', insecure)).status).toBe(200);
  });

  it('lets a public agent client revoke its refresh token and account key by client_id', async () => {
    const agent = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous' });
    const clientId = agent.body.client_id as string;
    const bearer = await postJson(server.baseUrl, '/oauth/claim', { claim_id: agent.body.claim_id });
    const revoke = (token: string, id = clientId) => postForm(server.baseUrl, '/oauth/revoke', { token, token_type_hint: 'refresh_token', client_id: id });
    // Another client may not revoke it (and a confidential one must authenticate first).
    const other = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous' });
    expectOAuthError(await revoke(bearer.body.refresh_token as string, other.body.client_id as string), 400, 'unauthorized_client');
    expectOAuthError(await revoke(bearer.body.refresh_token as string, service.client_id), 401, 'invalid_client');
    expect((await managementApi(bearer.body.access_token as string)).status).toBe(200);
    expect((await revoke(bearer.body.refresh_token as string)).status).toBe(200);
    expect((await managementApi(bearer.body.access_token as string)).status).toBe(401);
    const refreshed = await postForm(server.baseUrl, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: bearer.body.refresh_token as string,
      client_id: clientId,
    });
    expectOAuthError(refreshed, 400, 'invalid_grant');
  });

  it('requires client authentication for introspection', async () => {
    const agent = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous' });
    expectOAuthError(
      await postForm(server.baseUrl, '/oauth/introspect', { token: agentToken, client_id: agent.body.client_id as string }),
      401,
      'invalid_client',
    );
    expectOAuthError(await postForm(server.baseUrl, '/oauth/introspect', { token: agentToken }), 401, 'invalid_client');
  });
});
