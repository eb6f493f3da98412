/**
 * A strict OAuth client (oauth4webapi) against a test server, for the
 * authorization code tests: discovery, a public client registered
 * dynamically with a loopback redirect URI, a signed-in person, and the
 * consent page driven by form POSTs with the session cookie and CSRF token.
 */
import * as oauth from 'oauth4webapi';
import { expect } from 'vitest';
import { type Client, signedInClient, type TestServer } from '../support/server.js';
import { discover, hiddenField, idpKey, insecure, postForm, startOAuthServer } from './helpers.js';

export const registeredRedirect = 'http://127.0.0.1/callback';
// RFC 8252 §7.3: a native app listens on an ephemeral port; the registered loopback URI matches any port.
export const redirectUri = 'http://127.0.0.1:49152/callback';

export interface Started {
  url: URL;
  verifier: string;
  state: string;
}

export interface CodeFlow {
  server: TestServer;
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  person: Client;
  authorizationUrl(params?: Record<string, string | string[]>, forClient?: oauth.Client): Promise<Started>;
  /** The person opens the authorization URL and answers the consent form; returns the redirect. */
  consent(url: URL, action?: 'approve' | 'deny', who?: Client): Promise<URL>;
  tokensFor(
    params?: Record<string, string | string[]>,
    resource?: string,
  ): Promise<{ callback: URLSearchParams; started: Started; tokens: oauth.TokenEndpointResponse }>;
  managementApi(token: string): Promise<Response>;
}

/** `env`: settings for the server (e.g. a short OAUTH_ACCESS_TOKEN_SECONDS). */
export async function startCodeFlow(env: Record<string, string> = {}): Promise<CodeFlow> {
  const server = await startOAuthServer(await idpKey(), [], env);
  const as = await discover(server.baseUrl);
  const registration = await oauth.dynamicClientRegistrationRequest(
    as,
    {
      redirect_uris: [registeredRedirect],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      client_name: 'Flow <test>',
    },
    insecure,
  );
  const client = await oauth.processDynamicClientRegistrationResponse(registration);
  const person = await signedInClient(server.baseUrl);

  async function authorizationUrl(params: Record<string, string | string[]> = {}, forClient = client): Promise<Started> {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint as string);
    const defaults: Record<string, string | string[]> = {
      response_type: 'code',
      client_id: forClient.client_id,
      redirect_uri: redirectUri,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    };
    for (const [key, value] of Object.entries({ ...defaults, ...params })) {
      for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(key, v);
    }
    return { url, verifier, state };
  }

  async function consent(url: URL, action: 'approve' | 'deny' = 'approve', who = person): Promise<URL> {
    const page = await fetch(url, { headers: { cookie: who.cookie }, redirect: 'manual' });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Allow access?');
    const answer = await postForm(
      server.baseUrl,
      '/oauth/authorize',
      { request: hiddenField(html, 'request'), csrf: hiddenField(html, 'csrf'), action },
      { cookie: who.cookie },
    );
    expect(answer.status).toBe(302);
    return new URL(answer.headers.get('location') as string);
  }

  async function tokensFor(params: Record<string, string | string[]> = {}, resource?: string) {
    const started = await authorizationUrl(params);
    const callback = oauth.validateAuthResponse(as, client, await consent(started.url), started.state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), callback, redirectUri, started.verifier, {
      ...insecure,
      ...(resource ? { additionalParameters: { resource } } : {}),
    });
    return { callback, started, tokens: await oauth.processAuthorizationCodeResponse(as, client, response) };
  }

  const managementApi = (token: string) => fetch(`${server.baseUrl}/api/v1/knowledge-bases`, { headers: { authorization: `Bearer ${token}` } });
  return { server, as, client, person, authorizationUrl, consent, tokensFor, managementApi };
}
