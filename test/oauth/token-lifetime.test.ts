/**
 * Lifetime caps: a token correctly signed with the server's own key, or an
 * ID-JAG correctly signed by a trusted issuer, is still refused when it lives
 * longer than this server allows — our access tokens live 15 minutes (plus
 * 5 s of skew), ID-JAGs at most ID_JAG_MAX_LIFETIME_SECONDS (default 300).
 * Errors stay standard: `invalid_token` (401) at the resources,
 * `invalid_grant` at the token endpoint, `{"active":false}` at introspection.
 */
import { importJWK, type JWK, SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initializeRequest, rawMcp } from '../mcp/helpers.js';
import type { TestServer } from '../support/server.js';
import { expectOAuthError, type IdpKey, idpKey, insecure, mintIdJag, postForm, postJson, startOAuthServer } from './helpers.js';
import { jwtBearer, startWithServiceClient } from './service-client.js';

const tenYears = 10 * 365 * 24 * 3600;

let server: TestServer;
let as: oauth.AuthorizationServer;
let key: IdpKey;
let service: oauth.Client;
/** The claims of a real token the server issued (its grant, client, audiences), to re-sign with chosen times. */
let realClaims: Record<string, unknown>;

beforeAll(async () => {
  let agentToken: string;
  ({ server, as, key, service, agentToken } = await startWithServiceClient());
  realClaims = JSON.parse(Buffer.from(agentToken.split('.')[1] as string, 'base64url').toString());
});
afterAll(() => server?.stop());

const now = () => Math.floor(Date.now() / 1000);

/** A token signed with the server's active private key (what only the server can do), with the given times. */
async function signedByServer(times: { iat?: number | undefined; exp?: number | undefined }): Promise<string> {
  const [active] = await server.store.signingKeys.listSigningKeys('oauth');
  if (!active) throw new Error('no signing key');
  const { iat: _iat, exp: _exp, ...claims } = realClaims;
  const payload: Record<string, unknown> = { ...claims };
  if (times.iat !== undefined) payload.iat = times.iat;
  if (times.exp !== undefined) payload.exp = times.exp;
  return new SignJWT(payload).setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: active.kid }).sign(await importJWK(active.privateJwk as JWK, 'EdDSA'));
}

const managementApi = (token: string) => fetch(`${server.baseUrl}/api/v1/knowledge-bases`, { headers: { authorization: `Bearer ${token}` } });
const mcp = (token: string) => rawMcp(server, initializeRequest, { authorization: `Bearer ${token}` });
const introspect = async (token: string) =>
  (await oauth.processIntrospectionResponse(
    as,
    service,
    await oauth.introspectionRequest(as, service, oauth.ClientSecretBasic(service.client_secret as string), token, insecure),
  )) as { active: boolean };

describe('access tokens signed with our key', () => {
  it('accepts one with our own lifetime at /api/v1, /api/mcp and introspection (control)', async () => {
    const token = await signedByServer({ iat: now(), exp: now() + 900 });
    expect((await managementApi(token)).status).toBe(200);
    expect((await mcp(token)).status).toBe(200);
    expect((await introspect(token)).active).toBe(true);
  });

  it.each<[string, () => { iat?: number; exp?: number }]>([
    ['a 10-year expiry', () => ({ iat: now(), exp: now() + tenYears })],
    ['a lifetime just past 15 minutes and the skew', () => ({ iat: now() - 10, exp: now() - 10 + 906 })],
    ['no iat', () => ({ exp: now() + 600 })],
    ['an iat in the future beyond the skew', () => ({ iat: now() + 120, exp: now() + 120 + 900 })],
  ])('refuses one with %s: 401 invalid_token at /api/v1 and /api/mcp, inactive at introspection', async (_name, times) => {
    const token = await signedByServer(times());
    const rest = await managementApi(token);
    expect(rest.status).toBe(401);
    expect(rest.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const agents = await mcp(token);
    expect(agents.status).toBe(401);
    expect(agents.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    expect(await introspect(token)).toEqual({ active: false });
  });

  it('refuses one without exp', async () => {
    const token = await signedByServer({ iat: now() });
    expect((await managementApi(token)).status).toBe(401);
    expect((await mcp(token)).status).toBe(401);
  });
});

describe('ID-JAGs from a trusted issuer', () => {
  const exchange = (assertion: string) =>
    oauth.genericTokenEndpointRequest(as, service, oauth.ClientSecretBasic(service.client_secret as string), jwtBearer, { assertion }, insecure);

  it('exchanges one living 300 s (the draft\'s example lifetime) for an access token (control)', async () => {
    const assertion = await mintIdJag(key, server.baseUrl, { clientId: service.client_id, iat: now(), exp: now() + 300 });
    expect((await exchange(assertion)).status).toBe(200);
  });

  it.each<[string, () => { iat: number; exp: number }, RegExp]>([
    ['with a 10-year expiry', () => ({ iat: now(), exp: now() + tenYears }), /too far in the future/],
    ['living 10 minutes, though not yet expiring far ahead', () => ({ iat: now() - 400, exp: now() + 200 }), /lives too long/],
  ])('refuses one %s with invalid_grant', async (_name, times, reason) => {
    const assertion = await mintIdJag(key, server.baseUrl, { clientId: service.client_id, ...times() });
    const response = await exchange(assertion);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(reason) });
  });

  it('refuses a 10-year ID-JAG at agent registration too', async () => {
    const registered = await postJson(server.baseUrl, '/oauth/register', {
      identity_type: 'identity_assertion',
      assertion_type: 'urn:ietf:params:oauth:token-type:id-jag',
      assertion: await mintIdJag(key, server.baseUrl, { iat: now(), exp: now() + tenYears }),
    });
    expectOAuthError(registered, 400, 'invalid_grant');
  });

  it('accepts a longer lifetime when ID_JAG_MAX_LIFETIME_SECONDS allows it, and still caps it', async () => {
    const idp = await idpKey();
    const lenient = await startOAuthServer(idp, [], { ID_JAG_MAX_LIFETIME_SECONDS: '900' });
    try {
      const register = async (times: { iat: number; exp: number }) => {
        const registered = await postJson(lenient.baseUrl, '/oauth/register', {
          identity_type: 'identity_assertion',
          assertion_type: 'urn:ietf:params:oauth:token-type:id-jag',
          assertion: await mintIdJag(idp, lenient.baseUrl, times),
        });
        const clientId = registered.body.client_id as string;
        return postForm(lenient.baseUrl, '/oauth/token', {
          grant_type: jwtBearer,
          client_id: clientId,
          assertion: await mintIdJag(idp, lenient.baseUrl, { clientId, ...times }),
        });
      };
      expect((await register({ iat: now(), exp: now() + 600 })).status).toBe(200);
      const registered = await postJson(lenient.baseUrl, '/oauth/register', {
        identity_type: 'identity_assertion',
        assertion_type: 'urn:ietf:params:oauth:token-type:id-jag',
        assertion: await mintIdJag(idp, lenient.baseUrl, { iat: now(), exp: now() + 1200 }),
      });
      expectOAuthError(registered, 400, 'invalid_grant');
    } finally {
      await lenient.stop();
    }
  });
});
