/**
 * Refusals of the authorization code flow: code reuse (revoking what it
 * issued), wrong PKCE verifier, redirect URI mismatches (shown to the person,
 * never redirected), bad authorization parameters (redirected with state and
 * iss), a forged consent answer, and confidential-client authentication.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, TestServer } from '../support/server.js';
import { type CodeFlow, redirectUri, startCodeFlow } from './code-flow.js';
import { expectOAuthError, insecure, postForm } from './helpers.js';

let flow: CodeFlow;
let server: TestServer;
let as: oauth.AuthorizationServer;
let client: oauth.Client;
let person: Client;

beforeAll(async () => {
  flow = await startCodeFlow();
  ({ server, as, client, person } = flow);
});
afterAll(() => server?.stop());

const authorizationUrl = (...args: Parameters<CodeFlow['authorizationUrl']>) => flow.authorizationUrl(...args);
const consent = (...args: Parameters<CodeFlow['consent']>) => flow.consent(...args);
const tokensFor = (...args: Parameters<CodeFlow['tokensFor']>) => flow.tokensFor(...args);
const managementApi = (token: string) => flow.managementApi(token);

describe('errors', () => {
  it('refuses a reused authorization code and revokes the tokens issued from it', async () => {
    const { tokens, callback, started } = await tokensFor();
    expect((await managementApi(tokens.access_token)).status).toBe(200);
    const again = await postForm(server.baseUrl, '/oauth/token', {
      grant_type: 'authorization_code',
      code: callback.get('code') as string,
      redirect_uri: redirectUri,
      code_verifier: started.verifier,
      client_id: client.client_id,
    });
    expectOAuthError(again, 400, 'invalid_grant');
    expect((await managementApi(tokens.access_token)).status).toBe(401);
    expectOAuthError(
      await postForm(server.baseUrl, '/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token as string,
        client_id: client.client_id,
      }),
      400,
      'invalid_grant',
    );
  });

  it('refuses a wrong PKCE verifier and a different redirect URI at the token endpoint', async () => {
    const started = await authorizationUrl();
    const callback = oauth.validateAuthResponse(as, client, await consent(started.url), started.state);
    const code = callback.get('code') as string;
    const exchange = (fields: Record<string, string>) =>
      postForm(server.baseUrl, '/oauth/token', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: started.verifier,
        client_id: client.client_id,
        ...fields,
      });
    expectOAuthError(await exchange({ code_verifier: oauth.generateRandomCodeVerifier() }), 400, 'invalid_grant');
    expectOAuthError(await exchange({ redirect_uri: 'http://127.0.0.1:40000/callback' }), 400, 'invalid_grant');
    expectOAuthError(await exchange({ code_verifier: '' }), 400, 'invalid_request');
    expect((await exchange({})).status).toBe(200); // the failures above did not spend the code
  });

  it('shows a redirect URI mismatch or unknown client to the person instead of redirecting', async () => {
    const cases: Record<string, string>[] = [
      { redirect_uri: 'https://attacker.example/callback' },
      { redirect_uri: 'http://127.0.0.1:49152/other' },
      { client_id: 'cli_unknown' },
    ];
    for (const params of cases) {
      const started = await authorizationUrl(params);
      const response = await fetch(started.url, { headers: { cookie: person.cookie }, redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    }
  });

  it.each<[string, Record<string, string | string[]>, string]>([
    ['no PKCE challenge', { code_challenge: [] }, 'invalid_request'],
    ['the plain PKCE method', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['an unsupported response type', { response_type: 'token' }, 'unsupported_response_type'],
    ['an unknown scope', { scope: 'admin' }, 'invalid_scope'],
    ['a foreign resource', { resource: 'https://elsewhere.example/api' }, 'invalid_target'],
  ])('redirects %s back as an error with state and iss', async (_name, params, error) => {
    const started = await authorizationUrl();
    if (Array.isArray(params.code_challenge)) started.url.searchParams.delete('code_challenge');
    for (const [key, value] of Object.entries(params)) if (!Array.isArray(value)) started.url.searchParams.set(key, value);
    const response = await fetch(started.url, { headers: { cookie: person.cookie }, redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') as string);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ error, state: started.state, iss: server.baseUrl });
  });

  it('refuses a consent answer without the session CSRF token', async () => {
    const started = await authorizationUrl();
    const answer = await postForm(
      server.baseUrl,
      '/oauth/authorize',
      { request: started.url.searchParams.toString(), csrf: 'forged', action: 'approve' },
      { cookie: person.cookie },
    );
    expect(answer.status).toBe(403);
    expect(answer.headers.get('location')).toBeNull();
  });

  it('authenticates a confidential client at the token endpoint with client_secret_basic', async () => {
    const registration = await oauth.dynamicClientRegistrationRequest(
      as,
      { redirect_uris: ['https://app.example/cb'], grant_types: ['authorization_code'] },
      insecure,
    );
    const confidential = await oauth.processDynamicClientRegistrationResponse(registration);
    const verifier = oauth.generateRandomCodeVerifier();
    const url = new URL(as.authorization_endpoint as string);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: confidential.client_id,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();
    const location = await consent(url);
    expect(`${location.origin}${location.pathname}`).toBe('https://app.example/cb');
    const callback = oauth.validateAuthResponse(as, confidential, location, oauth.expectNoState);
    const wrong = await oauth.authorizationCodeGrantRequest(
      as,
      confidential,
      oauth.ClientSecretBasic('wrong'),
      callback,
      'https://app.example/cb',
      verifier,
      insecure,
    );
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic/);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      confidential,
      oauth.ClientSecretBasic(confidential.client_secret as string),
      callback,
      'https://app.example/cb',
      verifier,
      insecure,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, confidential, response);
    expect(tokens.refresh_token).toBeUndefined(); // not registered for refresh_token
    expect((await managementApi(tokens.access_token)).status).toBe(200);
  });
});
