/**
 * The authorization code flow with PKCE, driven by oauth4webapi as a strict
 * client: the consent page (a signed-in person's session cookie and CSRF
 * token, form POST, 302 back with code, state and iss), code exchange,
 * audiences, refresh-token rotation with reuse detection, sign-in on the
 * page itself, and denial.
 */
import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFromOutbox, type TestServer } from '../support/server.js';
import { type CodeFlow, redirectUri, startCodeFlow } from './code-flow.js';
import { cookiesOf, expectOAuthError, hiddenField, insecure, postForm, uniqueEmail } from './helpers.js';

let flow: CodeFlow;
let server: TestServer;
let as: oauth.AuthorizationServer;
let client: oauth.Client;

beforeAll(async () => {
  // Without the grace window, so a rotated refresh token presented again is reuse at once (the
  // window, which follows the token's successors instead, is test/oauth/refresh-rotation.test.ts).
  flow = await startCodeFlow({ REFRESH_REUSE_GRACE_SECONDS: '0' });
  ({ server, as, client } = flow);
});
afterAll(() => server?.stop());

const authorizationUrl = (...args: Parameters<CodeFlow['authorizationUrl']>) => flow.authorizationUrl(...args);
const consent = (...args: Parameters<CodeFlow['consent']>) => flow.consent(...args);
const tokensFor = (...args: Parameters<CodeFlow['tokensFor']>) => flow.tokensFor(...args);
const managementApi = (token: string) => flow.managementApi(token);

describe('happy path', () => {
  it('runs the flow for the MCP resource: consent, iss-checked redirect, code exchange, RFC 9068 token for that audience', async () => {
    const mcp = `${server.baseUrl}/api/mcp`;
    const { tokens, callback } = await tokensFor({ scope: 'mcp', resource: mcp }, mcp);
    expect(callback.get('iss')).toBe(server.baseUrl);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toBe('kb:read kb:write tools:run mcp');
    expect(tokens.expires_in).toBe(900);
    expect(tokens.refresh_token).toMatch(/^gw_rt_/);
    const request = new Request(mcp, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    const claims = await oauth.validateJwtAccessToken(as, request, mcp, insecure);
    expect(claims).toMatchObject({ iss: server.baseUrl, aud: mcp, client_id: client.client_id, scope: 'kb:read kb:write tools:run mcp' });
    // Meant for the MCP server, so the management API refuses it.
    expect((await managementApi(tokens.access_token)).status).toBe(401);
  });

  it('defaults the audience to the management API, where the token works', async () => {
    const { tokens } = await tokensFor({ scope: 'kb:read' });
    expect(decodeJwt(tokens.access_token).aud).toBe(`${server.baseUrl}/api/v1`);
    expect((await managementApi(tokens.access_token)).status).toBe(200);
    // kb:read does not allow writes.
    const write = await fetch(`${server.baseUrl}/api/v1/knowledge-bases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ botName: 'No' }),
    });
    expect(write.status).toBe(403);
  });

  it('rotates refresh tokens, and a reused one revokes the whole family (no grace window)', async () => {
    const { tokens } = await tokensFor();
    const first = tokens.refresh_token as string;
    const rotated = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first, insecure));
    expect(rotated.refresh_token).not.toBe(first);
    expect((await managementApi(rotated.access_token)).status).toBe(200);
    const narrowed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), rotated.refresh_token as string, {
        ...insecure,
        additionalParameters: { scope: 'kb:read' },
      }),
    );
    expect(narrowed.scope).toBe('kb:read');

    const reuse = await postForm(server.baseUrl, '/oauth/token', { grant_type: 'refresh_token', refresh_token: first, client_id: client.client_id });
    expectOAuthError(reuse, 400, 'invalid_grant');
    // Every token of the grant is dead: the newest refresh token and the access tokens.
    const latest = await postForm(server.baseUrl, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: narrowed.refresh_token as string,
      client_id: client.client_id,
    });
    expectOAuthError(latest, 400, 'invalid_grant');
    expect((await managementApi(rotated.access_token)).status).toBe(401);
    expect((await managementApi(tokens.access_token)).status).toBe(401);
  });

  it('signs the person in on the page itself when there is no session, then asks for consent', async () => {
    const started = await authorizationUrl();
    const email = uniqueEmail();
    const first = await fetch(started.url, { redirect: 'manual' });
    const cookie = cookiesOf(first.headers);
    let html = await first.text();
    expect(html).toContain('Sign in to Groundwork to let Flow &#60;test&#62; access your account.');
    const sent = await postForm(
      server.baseUrl,
      '/oauth/authorize',
      { request: hiddenField(html, 'request'), csrf: hiddenField(html, 'csrf'), action: 'send_code', email },
      { cookie },
    );
    html = sent.text;
    const code = await codeFromOutbox(server.baseUrl, email);
    const verified = await postForm(
      server.baseUrl,
      '/oauth/authorize',
      { request: hiddenField(html, 'request'), csrf: hiddenField(html, 'csrf'), action: 'verify_code', email, code },
      { cookie },
    );
    expect(verified.status).toBe(303);
    expect(verified.headers.get('location')).toBe(`/oauth/authorize?${started.url.searchParams.toString()}`);
    const session = cookiesOf(verified.headers);
    const consentPage = await fetch(`${server.baseUrl}${verified.headers.get('location')}`, { headers: { cookie: session } });
    expect(await consentPage.text()).toContain('Allow access?');
  });

  it('sends a denial back as access_denied with state and iss', async () => {
    const started = await authorizationUrl();
    const location = await consent(started.url, 'deny');
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ error: 'access_denied', state: started.state, iss: server.baseUrl });
    expect(() => oauth.validateAuthResponse(as, client, location, started.state)).toThrow();
  });
});
