/**
 * `POST /oauth/register` (product.md §6): the three agent identity types and
 * RFC 7591 dynamic client registration, with their exact statuses and bodies,
 * and the RFC 6749 error bodies for every refusal.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../api/helpers.js';
import { signedInClient, type TestServer } from '../support/server.js';
import { confirmClaim, discover, expectOAuthError, type IdpKey, idpKey, insecure, mintIdJag, postJson, startOAuthServer, uniqueEmail } from './helpers.js';

let server: TestServer;
let key: IdpKey;

beforeAll(async () => {
  key = await idpKey();
  server = await startOAuthServer(key);
});
afterAll(() => server?.stop());

const register = (body: unknown, headers?: Record<string, string>) => postJson(server.baseUrl, '/oauth/register', body, headers);
const claim = (body: unknown) => postJson(server.baseUrl, '/oauth/claim', body);

describe('agent registration', () => {
  it('registers an anonymous agent: 201 ready, with a claim URI that does not reveal the claim id', async () => {
    const before = Date.now();
    const response = await register({ identity_type: 'anonymous' });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(response.body).sort()).toEqual(
      ['claim_expires_at', 'claim_id', 'claim_uri', 'client_id', 'credential_types_supported', 'identity_type', 'status'].sort(),
    );
    expect(response.body).toMatchObject({ status: 'ready', identity_type: 'anonymous', credential_types_supported: ['bearer_token', 'api_key'] });
    const claimId = response.body.claim_id as string;
    expect(claimId).toMatch(/^gw_claim_[0-9A-Za-z]{43}$/);
    expect(response.body.claim_uri).toMatch(new RegExp(`^${server.baseUrl}/claim\\?code=[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$`));
    expect(response.body.claim_uri).not.toContain(claimId);
    const expires = Date.parse(response.body.claim_expires_at as string);
    expect(expires - before).toBeGreaterThan(3500_000);
    expect(expires - before).toBeLessThan(3700_000);
  });

  it('registers a verified_email agent as pending until the person confirms the e-mailed code on the claim page', async () => {
    const email = uniqueEmail();
    const response = await register({ identity_type: 'identity_assertion', assertion_type: 'verified_email', email });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ status: 'pending_verification', identity_type: 'identity_assertion', assertion_type: 'verified_email' });
    expect(Date.parse(response.body.claim_expires_at as string) - Date.now()).toBeGreaterThan(23 * 3600_000);

    const pending = await claim({ claim_id: response.body.claim_id });
    expectOAuthError(pending, 403, 'authorization_pending');

    const mail = (await outbox(server.baseUrl)).find((m) => m.to === email);
    const code = /Confirmation code: ([A-Z2-9]{3}-[A-Z2-9]{3})/.exec(mail?.text ?? '')?.[1] as string;
    expect(code).toBeDefined();
    expect(mail?.text).toContain(`${response.body.claim_uri}&verification=${code}`);
    expect(mail?.text).not.toContain(response.body.claim_id as string);

    // The link from the mail pre-fills the code; the person submits the form.
    const page = await fetch(`${response.body.claim_uri}&verification=${code}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`value="${code}"`);
    expect((await confirmClaim(server.baseUrl, response.body.claim_uri as string, 'WRONG1')).status).toBe(400);
    const confirmed = await confirmClaim(server.baseUrl, response.body.claim_uri as string, code);
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain('Confirmed');

    const credentials = await claim({ claim_id: response.body.claim_id });
    expect(credentials.status).toBe(200);
    const token = credentials.body.access_token as string;
    const created = await postJson(server.baseUrl, '/api/v1/knowledge-bases', { botName: 'Agent of a person' }, { authorization: `Bearer ${token}` });
    expect(created.status).toBe(201);

    // The person who owns the address signs in and finds the agent's work in their account.
    const person = await signedInClient(server.baseUrl, email);
    const listed = await person.get<{ items?: { ragId: string }[] } | { ragId: string }[]>('/api/v1/knowledge-bases');
    expect(JSON.stringify(listed.body)).toContain(created.body.ragId as string);
  });

  it('registers an agent with a verified ID-JAG, bound to (iss, sub): the same identity gets the same account', async () => {
    const subject = 'employee-42';
    const first = await register({
      identity_type: 'identity_assertion',
      assertion_type: 'urn:ietf:params:oauth:token-type:id-jag',
      assertion: await mintIdJag(key, server.baseUrl, { subject }),
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ status: 'ready', identity_type: 'identity_assertion', assertion_type: 'urn:ietf:params:oauth:token-type:id-jag' });
    const second = await register({
      identity_type: 'identity_assertion',
      assertion_type: 'urn:ietf:params:oauth:token-type:id-jag',
      assertion: await mintIdJag(key, server.baseUrl, { subject }),
    });
    expect(second.status).toBe(201);
    const tokenA = (await claim({ claim_id: first.body.claim_id })).body.access_token as string;
    const tokenB = (await claim({ claim_id: second.body.claim_id })).body.access_token as string;
    const created = await postJson(server.baseUrl, '/api/v1/knowledge-bases', { botName: 'Shared' }, { authorization: `Bearer ${tokenA}` });
    expect(created.status).toBe(201);
    const listed = await fetch(`${server.baseUrl}/api/v1/knowledge-bases`, { headers: { authorization: `Bearer ${tokenB}` } });
    expect(await listed.text()).toContain(created.body.ragId as string);
  });
});

describe('dynamic client registration (RFC 7591)', () => {
  it('registers a public client with oauth4webapi: 201, no secret, metadata echoed', async () => {
    const as = await discover(server.baseUrl);
    const metadata = {
      redirect_uris: ['http://127.0.0.1/callback'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_name: 'Test MCP client',
    };
    const response = await oauth.dynamicClientRegistrationRequest(as, metadata, insecure);
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const client = await oauth.processDynamicClientRegistrationResponse(response);
    expect(client).toMatchObject(metadata);
    expect(client.client_id).toMatch(/^cli_/);
    expect(client.client_secret).toBeUndefined();
    expect(Math.abs((client.client_id_issued_at as number) - Date.now() / 1000)).toBeLessThan(60);
  });

  it('gives a confidential client a secret that never expires', async () => {
    const response = await register({ redirect_uris: ['https://app.example/cb'], client_name: 'Web app' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      client_secret_expires_at: 0,
    });
    expect(response.body.client_secret).toMatch(/^gw_cs_/);
  });

  it('registers a client_credentials client for the account whose bearer token comes with the request', async () => {
    const agent = await register({ identity_type: 'anonymous' });
    const token = (await claim({ claim_id: agent.body.claim_id })).body.access_token as string;
    const response = await register(
      { grant_types: ['client_credentials'], token_endpoint_auth_method: 'client_secret_post' },
      { authorization: `Bearer ${token}` },
    );
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ grant_types: ['client_credentials'], response_types: [], redirect_uris: [] });
  });
});

describe('errors', () => {
  it.each([
    ['an empty body', {}, 'invalid_request'],
    ['an unknown identity type', { identity_type: 'robot' }, 'invalid_request'],
    ['an identity assertion without assertion_type', { identity_type: 'identity_assertion' }, 'invalid_request'],
    ['verified_email without email', { identity_type: 'identity_assertion', assertion_type: 'verified_email' }, 'invalid_request'],
    [
      'verified_email with a bad address',
      { identity_type: 'identity_assertion', assertion_type: 'verified_email', email: 'not-an-address' },
      'invalid_request',
    ],
    ['an ID-JAG type without assertion', { identity_type: 'identity_assertion', assertion_type: 'urn:ietf:params:oauth:token-type:id-jag' }, 'invalid_request'],
    ['anonymous with an email (contradictory)', { identity_type: 'anonymous', email: 'a@example.test' }, 'invalid_request'],
    ['identity_type with redirect_uris (contradictory)', { identity_type: 'anonymous', redirect_uris: ['https://a.example/cb'] }, 'invalid_request'],
    ['an unknown assertion type', { identity_type: 'identity_assertion', assertion_type: 'urn:example:saml' }, 'unsupported_assertion_type'],
    [
      'a forged ID-JAG',
      { identity_type: 'identity_assertion', assertion_type: 'urn:ietf:params:oauth:token-type:id-jag', assertion: 'a.b.c' },
      'invalid_grant',
    ],
    ['a plain-http redirect URI', { redirect_uris: ['http://app.example/cb'] }, 'invalid_redirect_uri'],
    ['a redirect URI with a fragment', { redirect_uris: ['https://app.example/cb#x'] }, 'invalid_redirect_uri'],
    ['an unsupported grant type', { redirect_uris: ['https://app.example/cb'], grant_types: ['implicit'] }, 'invalid_client_metadata'],
    ['an unsupported response type', { redirect_uris: ['https://app.example/cb'], response_types: ['token'] }, 'invalid_client_metadata'],
    ['an unknown auth method', { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
    ['client_credentials without an account', { grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
    ['client_credentials for a public client', { grant_types: ['client_credentials'], token_endpoint_auth_method: 'none' }, 'invalid_client_metadata'],
  ])('refuses %s', async (_name, body, error) => {
    expectOAuthError(await register(body), 400, error);
  });

  it('refuses an ID-JAG meant for another audience with invalid_grant', async () => {
    const assertion = await mintIdJag(key, 'https://other-as.example');
    const response = await register({ identity_type: 'identity_assertion', assertion_type: 'urn:ietf:params:oauth:token-type:id-jag', assertion });
    expectOAuthError(response, 400, 'invalid_grant');
    expect(response.body.error_description).toMatch(/aud/);
  });

  it('refuses a body that is not JSON, and an invalid initial access token', async () => {
    const form = await fetch(`${server.baseUrl}/oauth/register`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(form.status).toBe(400);
    expect(((await form.json()) as { error: string }).error).toBe('invalid_request');
    const bad = await register({ redirect_uris: ['https://app.example/cb'] }, { authorization: 'Bearer not-a-token' });
    expectOAuthError(bad, 401, 'invalid_token');
    expect(bad.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  });

  it('limits how many confirmation mails one address receives', async () => {
    const email = uniqueEmail();
    const body = { identity_type: 'identity_assertion', assertion_type: 'verified_email', email };
    for (let i = 0; i < 5; i++) expect((await register(body)).status).toBe(201);
    const limited = await register(body);
    expectOAuthError(limited, 429, 'slow_down');
    expect(limited.headers.get('retry-after')).toBe('900');
  });
});
