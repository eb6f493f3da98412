/**
 * Client ID Metadata Documents end to end: a real HTTP server on loopback serves the documents
 * (allowed by the SSRF guard's development policy, as for web import), and oauth4webapi runs the
 * authorization code flow with the document URL as its client_id — consent, code exchange,
 * refresh — with one fetch for the whole flow (Cache-Control max-age). Then the refusals, each an
 * OAuth error at /oauth/token and an explained page at /oauth/authorize: a client_id that differs
 * from the URL, a redirect URI the document does not list, an oversize document, one that is not
 * JSON, and URLs that break the rules.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { type CodeFlow, redirectUri, registeredRedirect, startCodeFlow } from './code-flow.js';
import { expectOAuthError, insecure, postForm } from './helpers.js';

interface Served {
  body: string;
  type?: string;
  cacheControl?: string;
}

let flow: CodeFlow;
let server: TestServer;
let documents: http.Server;
let origin: string;
const hits = new Map<string, number>();
const served = new Map<string, Served>();

const url = (path: string) => `${origin}${path}`;
const doc = (path: string, fields: Record<string, unknown> = {}) =>
  JSON.stringify({ client_id: url(path), client_name: 'Doc App', redirect_uris: [registeredRedirect], grant_types: ['authorization_code', 'refresh_token'], ...fields });

beforeAll(async () => {
  documents = http.createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const entry = served.get(path);
    if (!entry) return response.writeHead(404).end();
    const headers: Record<string, string> = { 'content-type': entry.type ?? 'application/json' };
    if (entry.cacheControl) headers['cache-control'] = entry.cacheControl;
    response.writeHead(200, headers).end(entry.body);
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  served.set('/app/client.json', { body: doc('/app/client.json'), cacheControl: 'public, max-age=600' });
  served.set('/mismatch.json', { body: doc('/mismatch.json', { client_id: url('/someone-else.json') }) });
  served.set('/oversize.json', { body: doc('/oversize.json', { client_name: 'x'.repeat(400), contacts: Array.from({ length: 60 }, (_, i) => `c${i}-${'y'.repeat(80)}@example.test`) }) });
  served.set('/page.json', { body: '<html>not a document</html>', type: 'text/html' });
  served.set('/broken.json', { body: '{"client_id": ' });
  served.set('/secret.json', { body: doc('/secret.json', { token_endpoint_auth_method: 'client_secret_basic' }) });
  served.set('/no-store.json', { body: doc('/no-store.json'), cacheControl: 'no-store' });
  flow = await startCodeFlow();
  server = flow.server;
});
afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => documents?.close(resolve));
});

const client = (path: string): oauth.Client => ({ client_id: url(path), token_endpoint_auth_method: 'none' });

/** The authorization page's answer for a client_id (and any other parameters). */
async function authorizePage(clientId: string, params: Record<string, string> = {}) {
  const started = await flow.authorizationUrl(params, { client_id: clientId });
  const response = await fetch(started.url, { headers: { cookie: flow.person.cookie }, redirect: 'manual' });
  // The page's text with its character references decoded, to compare with the token endpoint's description.
  const html = (await response.text()).replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
  return { status: response.status, html };
}

/** A token request naming the client_id (a code that cannot be valid: the client is checked first). */
const tokenRequest = (clientId: string) =>
  postForm(server.baseUrl, '/oauth/token', { grant_type: 'authorization_code', client_id: clientId, code: 'gw_ac_nothing', redirect_uri: redirectUri, code_verifier: 'v'.repeat(43) });

describe('a client named by its metadata document URL', () => {
  it('is advertised in the authorization server metadata', () => {
    expect(flow.as.client_id_metadata_document_supported).toBe(true);
  });

  it('runs the whole code flow with oauth4webapi, refreshes, and fetches the document once', async () => {
    const app = client('/app/client.json');
    const started = await flow.authorizationUrl({ scope: 'kb:read' }, app);
    const page = await fetch(started.url, { headers: { cookie: flow.person.cookie } });
    // The page names the host that serves the document, not only the self-chosen name.
    expect(await page.text()).toContain(`Doc App (${new URL(origin).host})`);
    const callback = oauth.validateAuthResponse(flow.as, app, await flow.consent(started.url), started.state);
    const response = await oauth.authorizationCodeGrantRequest(flow.as, app, oauth.None(), callback, redirectUri, started.verifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(flow.as, app, response);
    expect(tokens.scope).toBe('kb:read');
    const claims = await oauth.validateJwtAccessToken(flow.as, new Request(`${server.baseUrl}/api/v1`, { headers: { authorization: `Bearer ${tokens.access_token}` } }), `${server.baseUrl}/api/v1`, insecure);
    expect(claims.client_id).toBe(app.client_id);
    expect((await flow.managementApi(tokens.access_token)).status).toBe(200);

    const refreshed = await oauth.processRefreshTokenResponse(
      flow.as,
      app,
      await oauth.refreshTokenGrantRequest(flow.as, app, oauth.None(), tokens.refresh_token as string, insecure),
    );
    expect((await flow.managementApi(refreshed.access_token)).status).toBe(200);
    // GET and POST of the authorization page, the code exchange and the refresh: one fetch (max-age=600).
    expect(hits.get('/app/client.json')).toBe(1);
  });

  it('is fetched again when the document says no-store', async () => {
    expect(await tokenRequest(url('/no-store.json'))).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await tokenRequest(url('/no-store.json'))).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(hits.get('/no-store.json')).toBe(2);
  });

  it('refuses a redirect URI the document does not list', async () => {
    const page = await authorizePage(url('/app/client.json'), { redirect_uri: 'http://127.0.0.1:49152/elsewhere' });
    expect(page.status).toBe(400);
    expect(page.html).toContain('The redirect URI does not match one the application registered.');
  });
});

describe('refusals', () => {
  it.each([
    ['a document whose client_id is another URL', '/mismatch.json', /client_id must equal the URL it was fetched from/],
    ['a document larger than 5 KiB', '/oversize.json', /larger than 5120 bytes/],
    ['a document that is not JSON by its content type', '/page.json', /content type "text\/html"/],
    ['a document that is not valid JSON', '/broken.json', /not valid JSON/],
    ['a document asking for a client secret', '/secret.json', /token_endpoint_auth_method must be "none"/],
    ['a document that is not there', '/missing.json', /answered 404/],
  ])('refuses %s: invalid_client at the token endpoint, an explained page at authorization', async (_name, path, reason) => {
    const token = await tokenRequest(url(path));
    expectOAuthError(token, 401, 'invalid_client');
    expect(token.body.error_description).toMatch(reason);
    const page = await authorizePage(url(path));
    expect(page.status).toBe(400);
    expect(page.html).toMatch(reason);
  });

  it.each([
    ['without a path', () => `${origin}/`, /must have a path/],
    ['with a fragment', () => `${url('/app/client.json')}#x`, /must not contain a fragment/],
    ['with dot segments', () => `${origin}/app/../app/client.json`, /must not contain \. or \.\. path segments/],
    ['with credentials', () => `http://user:pw@127.0.0.1:1/client.json`, /must not contain credentials/],
  ])('refuses a client_id URL %s with invalid_request, before any fetch', async (_name, make, reason) => {
    const before = [...hits.values()].reduce((a, b) => a + b, 0);
    const token = await tokenRequest(make());
    expectOAuthError(token, 400, 'invalid_request');
    expect(token.body.error_description).toMatch(reason);
    expect([...hits.values()].reduce((a, b) => a + b, 0)).toBe(before);
  });
});
