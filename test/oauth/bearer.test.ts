/**
 * `Authorization: Bearer` on the management API: only our own, unexpired
 * RFC 9068 tokens for the management API's audience (or live account keys)
 * are accepted, with their scopes; forged, expired, foreign-audience or
 * revoked credentials get 401. Signing keys rotate without breaking tokens.
 */
import { randomUUID } from 'node:crypto';
import { generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthKeys } from '../../src/identity/oauth/signing-keys.js';
import type { TestServer } from '../support/server.js';
import { idpKey, postForm, postJson, startOAuthServer } from './helpers.js';

let server: TestServer;
let agent: { client_id: string; access_token: string; sub: string };

beforeAll(async () => {
  server = await startOAuthServer(await idpKey());
  const registered = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous' });
  const claimed = await postJson(server.baseUrl, '/oauth/claim', { claim_id: registered.body.claim_id });
  const token = claimed.body.access_token as string;
  agent = {
    client_id: registered.body.client_id as string,
    access_token: token,
    sub: JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()).sub,
  };
});
afterAll(() => server?.stop());

const call = (credential: string, method = 'GET', body?: unknown) =>
  fetch(`${server.baseUrl}/api/v1/knowledge-bases`, {
    method,
    headers: { authorization: `Bearer ${credential}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

/** Signs a token with our current private signing key (what only the server can do), with chosen claims. */
async function signWithServerKey(claims: Record<string, unknown>, header: Record<string, unknown> = {}): Promise<string> {
  const [active] = await server.store.signingKeys.listSigningKeys('oauth');
  if (!active) throw new Error('no key');
  const key = await importJWK(active.privateJwk as JWK, 'EdDSA');
  const now = Math.floor(Date.now() / 1000);
  const real = JSON.parse(Buffer.from(agent.access_token.split('.')[1] as string, 'base64url').toString());
  return new SignJWT({ ...real, iat: now, exp: now + 600, ...claims })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: active.kid, ...header })
    .sign(key);
}

describe('happy path', () => {
  it('accepts a token signed by our key with the right claims', async () => {
    expect((await call(await signWithServerKey({}))).status).toBe(200);
  });

  it('keeps accepting tokens signed before a key rotation, and tokens signed with the new key at once', async () => {
    const before = agent.access_token;
    // Another instance (or an operator) rotates: this server learns of the new key on first sight of its kid.
    const elsewhere = new OAuthKeys(server.store.signingKeys);
    const newKid = await elsewhere.rotate();
    const published = await elsewhere.jwks();
    expect(published.keys.map((k) => k.kid)).toEqual([newKid, JSON.parse(Buffer.from(before.split('.')[0] as string, 'base64url').toString()).kid]);
    expect((await call(before)).status).toBe(200);
    const signedWithNew = await signWithServerKey({});
    expect(JSON.parse(Buffer.from(signedWithNew.split('.')[0] as string, 'base64url').toString()).kid).toBe(newKid);
    expect((await call(signedWithNew)).status).toBe(200);
  });
});

describe('security', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['expired', { exp: Math.floor(Date.now() / 1000) - 60, iat: Math.floor(Date.now() / 1000) - 1000 }, {}],
    ['for the MCP audience only', { aud: 'MCP' }, {}],
    ['from another issuer', { iss: 'https://evil.example' }, {}],
    ['with a typ other than at+jwt', {}, { typ: 'JWT' }],
    ['naming an unknown grant', { sid: 'grt_forged' }, {}],
    ['naming another client than its grant', { client_id: 'cli_other' }, {}],
  ])('refuses a token %s even when signed by our key', async (_name, claims, header) => {
    const resolved = claims.aud === 'MCP' ? { ...claims, aud: `${server.baseUrl}/api/mcp` } : claims;
    const response = await call(await signWithServerKey(resolved, header));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('refuses a token signed by another key under our kid, and an unsigned one', async () => {
    const [active] = await server.store.signingKeys.listSigningKeys('oauth');
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const real = JSON.parse(Buffer.from(agent.access_token.split('.')[1] as string, 'base64url').toString());
    const forged = await new SignJWT(real).setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: active?.kid }).sign(privateKey);
    expect((await call(forged)).status).toBe(401);
    const [header, payload] = agent.access_token.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`;
    expect((await call(none)).status).toBe(401);
    expect((await call(`${header}.${payload}.${'A'.repeat(86)}`)).status).toBe(401);
  });

  it('refuses unknown and revoked account keys', async () => {
    expect((await call(`gw_acct_${'a'.repeat(43)}`)).status).toBe(401);
    const registered = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous' });
    const { api_key: key } = (await postJson(server.baseUrl, '/oauth/claim', { claim_id: registered.body.claim_id, credential_type: 'api_key' })).body as {
      api_key: string;
    };
    expect((await call(key)).status).toBe(200);
    expect((await postForm(server.baseUrl, '/oauth/revoke', { token: key, client_id: registered.body.client_id as string })).status).toBe(200);
    expect((await call(key)).status).toBe(401);
  });

  it('enforces scopes from the credential', async () => {
    const readOnly = await signWithServerKey({ scope: 'kb:read' });
    expect((await call(readOnly)).status).toBe(200);
    const refused = await call(readOnly, 'POST', { botName: 'x' });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('forbidden');
  });

  it('treats a random string as an invalid credential', async () => {
    expect((await call(randomUUID())).status).toBe(401);
  });
});
