/**
 * Redirect URIs of the IDEs' MCP clients (issue 15 item 3, docs/agents.md): the custom schemes of
 * OAUTH_REDIRECT_SCHEMES (default cursor, vscode, vscode-insiders, windsurf) register, and the
 * whole authorization-code flow completes with them (oauth4webapi); matching at the authorization
 * step stays exact; schemes that run or read something (javascript:, data:, file:) never register,
 * not even through the setting.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer, type TestServer } from '../support/server.js';
import { type CodeFlow, startCodeFlow } from './code-flow.js';
import { expectOAuthError, insecure, postJson } from './helpers.js';

const ideRedirects = [
  'cursor://anysphere.cursor-mcp/oauth/callback',
  'vscode://vscode.github-authentication/did-authenticate',
  'vscode-insiders://vscode.github-authentication/did-authenticate',
  'windsurf://codeium.windsurf/oauth/callback',
];

let flow: CodeFlow;
beforeAll(async () => {
  flow = await startCodeFlow();
});
afterAll(() => flow?.server.stop());

async function registerPublic(redirectUri: string): Promise<oauth.Client> {
  const response = await oauth.dynamicClientRegistrationRequest(
    flow.as,
    { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], client_name: 'IDE' },
    insecure,
  );
  expect(response.status).toBe(201);
  return oauth.processDynamicClientRegistrationResponse(response);
}

describe('IDE redirect URIs (default OAUTH_REDIRECT_SCHEMES)', () => {
  it.each(ideRedirects)('registers %s and completes the authorization-code flow with it', async (redirectUri) => {
    const client = await registerPublic(redirectUri);
    const started = await flow.authorizationUrl({ redirect_uri: redirectUri, resource: `${flow.server.baseUrl}/api/mcp` }, client);
    const location = await flow.consent(started.url);
    expect(`${location.protocol}//${location.host}${location.pathname}`).toBe(redirectUri);
    const callback = oauth.validateAuthResponse(flow.as, client, location, started.state);
    const response = await oauth.authorizationCodeGrantRequest(flow.as, client, oauth.None(), callback, redirectUri, started.verifier, {
      ...insecure,
      additionalParameters: { resource: `${flow.server.baseUrl}/api/mcp` },
    });
    const tokens = await oauth.processAuthorizationCodeResponse(flow.as, client, response);
    expect(tokens.refresh_token).toMatch(/^gw_rt_/);
  });

  it('keeps matching exact: another path or host under the same scheme is refused at the authorization step', async () => {
    const client = await registerPublic(ideRedirects[0] as string);
    for (const other of ['cursor://anysphere.cursor-mcp/oauth/other', 'cursor://evil.example/oauth/callback']) {
      const started = await flow.authorizationUrl({ redirect_uri: other }, client);
      const page = await fetch(started.url, { headers: { cookie: flow.person.cookie }, redirect: 'manual' });
      expect(page.status).toBe(400);
      expect(page.headers.get('location')).toBeNull();
      expect(await page.text()).toContain('does not match');
    }
  });

  it.each([
    ['javascript:', 'javascript://x/%0aalert(1)'],
    ['data:', 'data://text/html,hi'],
    ['file:', 'file:///etc/passwd'],
    ['a scheme not on the list', 'foo://app/callback'],
  ])('refuses %s', async (_name, redirectUri) => {
    expectOAuthError(await postJson(flow.server.baseUrl, '/oauth/register', { redirect_uris: [redirectUri] }), 400, 'invalid_redirect_uri');
  });
});

describe('OAUTH_REDIRECT_SCHEMES', () => {
  let narrow: TestServer;
  beforeAll(async () => {
    narrow = await startServer({ OAUTH_REDIRECT_SCHEMES: 'cursor' });
  });
  afterAll(() => narrow?.stop());

  it('accepts only the schemes it lists', async () => {
    const register = (uri: string) => postJson(narrow.baseUrl, '/oauth/register', { redirect_uris: [uri], token_endpoint_auth_method: 'none' });
    expect((await register(ideRedirects[0] as string)).status).toBe(201);
    const refused = await register(ideRedirects[1] as string);
    expectOAuthError(refused, 400, 'invalid_redirect_uri');
    expect(refused.body.error_description).toContain('cursor:');
  });

  it('refuses to allow javascript, data or file, and accepts none', () => {
    const base = { DATA_DIR: '/tmp/unused', PUBLIC_URL: 'http://127.0.0.1:3000' };
    for (const scheme of ['javascript', 'cursor,data', 'file']) {
      expect(() => loadConfig({ ...base, OAUTH_REDIRECT_SCHEMES: scheme })).toThrow(/OAUTH_REDIRECT_SCHEMES/);
    }
    expect(loadConfig({ ...base, OAUTH_REDIRECT_SCHEMES: 'none' }).oauthRedirectSchemes).toEqual([]);
    expect(loadConfig(base).oauthRedirectSchemes).toEqual(['cursor', 'vscode', 'vscode-insiders', 'windsurf']);
  });
});
