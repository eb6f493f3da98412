/**
 * `POST /oauth/claim` and the claim page: credentials of both types, single
 * use (409), unknown (404), expired (410), and a signed-in person taking
 * ownership of an anonymous agent's account through claim_uri.
 */
import { decodeJwt, decodeProtectedHeader } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, codeFromOutbox, signedInClient, type TestServer } from '../support/server.js';
import { cookiesOf, discover, expectOAuthError, expireClaims, hiddenField, idpKey, postForm, postJson, startOAuthServer, uniqueEmail } from './helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startOAuthServer(await idpKey());
});
afterAll(() => server?.stop());

async function anonymousAgent() {
  const registered = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous' });
  expect(registered.status).toBe(201);
  return registered.body as { client_id: string; claim_id: string; claim_uri: string };
}

const claim = (body: unknown) => postJson(server.baseUrl, '/oauth/claim', body);
const asBearer = (credential: string) => {
  const client = new Client(server.baseUrl);
  return (method: string, url: string, body?: unknown) => client.request(method, url, body, { authorization: `Bearer ${credential}` });
};

describe('happy path', () => {
  it('claims a bearer token: an RFC 9068 access token for both APIs, with a refresh token', async () => {
    const agent = await anonymousAgent();
    const response = await claim({ claim_id: agent.claim_id, credential_type: 'bearer_token' });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(response.body).sort()).toEqual(['access_token', 'client_id', 'credential_type', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    expect(response.body).toMatchObject({
      credential_type: 'bearer_token',
      token_type: 'Bearer',
      expires_in: 900,
      scope: 'kb:read kb:write tools:run',
      client_id: agent.client_id,
    });
    const token = response.body.access_token as string;
    expect(decodeProtectedHeader(token)).toMatchObject({ typ: 'at+jwt', alg: 'EdDSA' });
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ iss: server.baseUrl, client_id: agent.client_id, aud: [`${server.baseUrl}/api/v1`, `${server.baseUrl}/api/mcp`] });
    expect((claims.exp as number) - (claims.iat as number)).toBe(900);

    // A resource server validating it with oauth4webapi (RFC 9068 rules, our JWKS).
    const as = await discover(server.baseUrl);
    const request = new Request(`${server.baseUrl}/api/v1/knowledge-bases`, { headers: { authorization: `Bearer ${token}` } });
    const validated = await oauth.validateJwtAccessToken(as, request, `${server.baseUrl}/api/v1`, { [oauth.allowInsecureRequests]: true });
    expect(validated.sub).toBe(claims.sub);

    const api = asBearer(token);
    const created = await api('POST', '/api/v1/knowledge-bases', { botName: 'Claimed' });
    expect(created.status).toBe(201);
    expect((await api('GET', '/api/v1/knowledge-bases')).status).toBe(200);
  });

  it('claims an account API key that works as a bearer credential on the management API', async () => {
    const agent = await anonymousAgent();
    const response = await claim({ claim_id: agent.claim_id, credential_type: 'api_key' });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['api_key', 'client_id', 'credential_type', 'scope']);
    expect(response.body).toMatchObject({ credential_type: 'api_key', scope: 'kb:read kb:write tools:run', client_id: agent.client_id });
    expect(response.body.api_key).toMatch(/^gw_acct_[0-9A-Za-z]{43}$/);
    const api = asBearer(response.body.api_key as string);
    expect((await api('POST', '/api/v1/knowledge-bases', { botName: 'Keyed' })).status).toBe(201);
  });

  it('narrows the bearer token to one resource when asked', async () => {
    const agent = await anonymousAgent();
    const response = await claim({ claim_id: agent.claim_id, resource: `${server.baseUrl}/api/mcp` });
    expect(response.status).toBe(200);
    expect(decodeJwt(response.body.access_token as string).aud).toBe(`${server.baseUrl}/api/mcp`);
    // A token for the MCP server is not one for the management API.
    const refused = await asBearer(response.body.access_token as string)('GET', '/api/v1/knowledge-bases');
    expect(refused.status).toBe(401);
  });

  it("lets a signed-in person take ownership of an anonymous agent's account; the agent keeps working as it", async () => {
    const agent = await anonymousAgent();
    const token = (await claim({ claim_id: agent.claim_id })).body.access_token as string;
    const api = asBearer(token);
    const agentKb = (await api('POST', '/api/v1/knowledge-bases', { botName: 'Agent work' })).body as { ragId: string };

    const person = await signedInClient(server.baseUrl);
    const page = await fetch(agent.claim_uri, { headers: { cookie: person.cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Take ownership');
    expect(hiddenField(html, 'csrf')).toBe(person.csrfToken);
    const adopted = await postForm(
      server.baseUrl,
      '/claim',
      { claim: hiddenField(html, 'claim'), csrf: person.csrfToken, action: 'adopt' },
      { cookie: person.cookie },
    );
    expect(adopted.status).toBe(200);

    const mine = JSON.stringify((await person.get('/api/v1/knowledge-bases')).body);
    expect(mine).toContain(agentKb.ragId);
    // The agent's existing token now acts for the person's account.
    expect(JSON.stringify((await api('GET', '/api/v1/knowledge-bases')).body)).toContain(agentKb.ragId);
    const again = await fetch(agent.claim_uri, { headers: { cookie: person.cookie } });
    expect(await again.text()).toContain('already belongs to a person');
  });

  it('signs a person in on the claim page itself (e-mail code) before taking ownership', async () => {
    const agent = await anonymousAgent();
    const email = uniqueEmail();
    const first = await fetch(agent.claim_uri);
    let cookie = cookiesOf(first.headers);
    let html = await first.text();
    expect(html).toContain('Send me a sign-in code');
    const sent = await postForm(
      server.baseUrl,
      '/claim',
      { claim: hiddenField(html, 'claim'), csrf: hiddenField(html, 'csrf'), action: 'send_code', email },
      { cookie },
    );
    expect(sent.status).toBe(200);
    html = sent.text;
    const code = await codeFromOutbox(server.baseUrl, email);
    const verified = await postForm(
      server.baseUrl,
      '/claim',
      { claim: hiddenField(html, 'claim'), csrf: hiddenField(html, 'csrf'), action: 'verify_code', email, code },
      { cookie },
    );
    expect(verified.status).toBe(303);
    expect(verified.headers.get('location')).toBe(`/claim?code=${new URL(agent.claim_uri).searchParams.get('code')}`);
    cookie = cookiesOf(verified.headers);
    expect(cookie).toMatch(/gw_session=/);
    const signedIn = await fetch(`${server.baseUrl}${verified.headers.get('location')}`, { headers: { cookie } });
    expect(await signedIn.text()).toContain('Take ownership');
  });
});

describe('errors', () => {
  it('redeems a claim id once: the second attempt is 409', async () => {
    const agent = await anonymousAgent();
    expect((await claim({ claim_id: agent.claim_id })).status).toBe(200);
    expectOAuthError(await claim({ claim_id: agent.claim_id }), 409, 'invalid_grant');
    expectOAuthError(await claim({ claim_id: agent.claim_id, credential_type: 'api_key' }), 409, 'invalid_grant');
  });

  it('answers 404 invalid_grant for an unknown claim id', async () => {
    expectOAuthError(await claim({ claim_id: 'gw_claim_unknown' }), 404, 'invalid_grant');
  });

  it('answers 410 for an expired claim', async () => {
    const agent = await anonymousAgent();
    expireClaims(server, agent.client_id);
    expectOAuthError(await claim({ claim_id: agent.claim_id }), 410, 'expired_token');
  });

  it.each([
    ['no claim_id', {}],
    ['an unknown credential type', { claim_id: 'gw_claim_x', credential_type: 'password' }],
    ['a resource that is not ours', { claim_id: 'gw_claim_x', resource: 'https://elsewhere.example/api' }],
  ])('refuses %s', async (_name, body) => {
    const response = await claim(body);
    expect(response.status).toBe(400);
    expect(['invalid_request', 'invalid_target']).toContain(response.body.error);
  });

  it('shows an unknown claim code as 404 and refuses a form without its CSRF token', async () => {
    const unknown = await fetch(`${server.baseUrl}/claim?code=AAAA-AAAA`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(unknown.headers.get('x-frame-options')).toBe('DENY');
    const agent = await anonymousAgent();
    const person = await signedInClient(server.baseUrl);
    const forged = await postForm(
      server.baseUrl,
      '/claim',
      { claim: new URL(agent.claim_uri).searchParams.get('code') as string, csrf: 'guess', action: 'adopt' },
      { cookie: person.cookie },
    );
    expect(forged.status).toBe(403);
    const crossSite = await postForm(
      server.baseUrl,
      '/claim',
      { claim: new URL(agent.claim_uri).searchParams.get('code') as string, csrf: person.csrfToken, action: 'adopt' },
      { cookie: person.cookie, origin: 'https://evil.example' },
    );
    expect(crossSite.status).toBe(403);
  });

  it('escapes whatever the claim page echoes', async () => {
    const registered = await postJson(server.baseUrl, '/oauth/register', {
      identity_type: 'identity_assertion',
      assertion_type: 'verified_email',
      email: uniqueEmail(),
    });
    const response = await fetch(`${registered.body.claim_uri}&verification=%22%3E%3Cscript%3Ealert(1)%3C/script%3E`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Confirmation code');
    expect(html).not.toMatch(/<script|alert\(/);
  });
});
