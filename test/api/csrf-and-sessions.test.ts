/**
 * Session cookies (HttpOnly, SameSite, Secure behind https) and CSRF
 * protection of cookie-authenticated writes to the management API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, codeFromOutbox, freePort, signedInClient, type TestServer } from '../support/server.js';
import { expectProblem, startTestServer, uniqueEmail } from './helpers.js';

let server: TestServer;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  server = await startTestServer({ MAX_KNOWLEDGE_BASES: '50' });
  [alice, bob] = await Promise.all([signedInClient(server.baseUrl), signedInClient(server.baseUrl)]);
});
afterAll(() => server?.stop());

/** Signs in against `origin` and returns the raw Set-Cookie headers. */
async function signInCookies(origin: string): Promise<{ session: string; csrf: string; expires: Date }> {
  const email = uniqueEmail();
  const started = await fetch(`${origin}/api/v1/auth/email/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  expect(started.status).toBe(202);
  const code = await codeFromOutbox(origin, email);
  const verified = await fetch(`${origin}/api/v1/auth/email/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, code }),
  });
  expect(verified.status).toBe(200);
  const cookies = verified.headers.getSetCookie();
  const session = cookies.find((c) => c.startsWith('gw_session=')) as string;
  const csrf = cookies.find((c) => c.startsWith('gw_csrf=')) as string;
  expect(session).toBeDefined();
  expect(csrf).toBeDefined();
  return { session, csrf, expires: new Date(/Expires=([^;]+)/.exec(session)?.[1] ?? '') };
}

const attributes = (cookie: string) =>
  cookie
    .split(';')
    .slice(1)
    .map((a) => a.trim().split('=')[0]?.toLowerCase());

function fork(client: Client, csrfToken = ''): Client {
  const copy = new Client(client.baseUrl);
  copy.cookie = client.cookie;
  copy.csrfToken = csrfToken;
  return copy;
}

describe('happy path', () => {
  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/, for thirty days; not Secure on plain-http loopback', async () => {
    const { session, csrf, expires } = await signInCookies(server.baseUrl);
    expect(attributes(session)).toEqual(expect.arrayContaining(['path', 'expires', 'httponly', 'samesite']));
    expect(session).toMatch(/; SameSite=Lax/);
    expect(session).toMatch(/; Path=\//);
    expect(attributes(session)).not.toContain('secure');
    const days = (expires.getTime() - Date.now()) / (24 * 3600_000);
    expect(Math.round(days)).toBe(30);
    // The CSRF cookie is readable by the dashboard's own scripts, so not HttpOnly.
    expect(attributes(csrf)).not.toContain('httponly');
    expect(csrf).toMatch(/; SameSite=Lax/);
  });

  it('cookie-authenticated writes with the X-CSRF-Token header succeed', async () => {
    const created = await alice.post<{ ragId: string }>('/api/v1/knowledge-bases', { botName: 'With token' });
    expect(created.status).toBe(201);
    expect((await alice.patch(`/api/v1/knowledge-bases/${created.body.ragId}`, { botName: 'Renamed' })).status).toBe(200);
    expect((await alice.delete(`/api/v1/knowledge-bases/${created.body.ragId}`)).status).toBe(204);
  });

  it('safe methods need no CSRF token', async () => {
    const reader = fork(alice);
    expect((await reader.get('/api/v1/knowledge-bases')).status).toBe(200);
    expect((await reader.get('/api/v1/auth/session')).status).toBe(200);
  });

  it('two sessions of one person are independent: signing out of one keeps the other', async () => {
    const email = uniqueEmail();
    const first = await signedInClient(server.baseUrl, email);
    const second = await signedInClient(server.baseUrl, email);
    expect(first.cookie).not.toBe(second.cookie);
    expect(first.csrfToken).not.toBe(second.csrfToken);
    expect((await first.post('/api/v1/auth/sign-out')).status).toBe(204);
    expect((await first.get('/api/v1/knowledge-bases')).status).toBe(401);
    expect((await second.get('/api/v1/knowledge-bases')).status).toBe(200);
  });
});

describe('errors', () => {
  it('refuses cookie writes without the CSRF header with 403 csrf_failed, changing nothing', async () => {
    const created = await alice.post<{ ragId: string; botName: string }>('/api/v1/knowledge-bases', { botName: 'Guarded' });
    const ragId = created.body.ragId;
    const forged = fork(alice);
    const create = await forged.post('/api/v1/knowledge-bases', { botName: 'Forged' });
    expect(expectProblem(create, 403, 'csrf_failed', server.baseUrl).detail).toContain('x-csrf-token');
    expectProblem(await forged.patch(`/api/v1/knowledge-bases/${ragId}`, { botName: 'Forged' }), 403, 'csrf_failed');
    expectProblem(await forged.delete(`/api/v1/knowledge-bases/${ragId}`), 403, 'csrf_failed');
    expectProblem(await forged.post(`/api/v1/knowledge-bases/${ragId}/sources`, { name: 'x', text: 'Q: a?\nA: b.' }), 403, 'csrf_failed');

    const list = await alice.get<{ items: { ragId: string; botName: string }[] }>('/api/v1/knowledge-bases');
    expect(list.body.items.map((kb) => kb.botName)).not.toContain('Forged');
    expect(list.body.items.find((kb) => kb.ragId === ragId)?.botName).toBe('Guarded');
    expect((await alice.delete(`/api/v1/knowledge-bases/${ragId}`)).status).toBe(204);
  });

  it('refuses a wrong token, an empty one and another session’s token', async () => {
    for (const token of ['wrong', alice.csrfToken.slice(0, -1), bob.csrfToken, `${alice.csrfToken}x`]) {
      expectProblem(await fork(alice, token).post('/api/v1/knowledge-bases', { botName: 'Forged' }), 403, 'csrf_failed');
    }
    const emptyHeader = fork(alice);
    expectProblem(await emptyHeader.post('/api/v1/knowledge-bases', { botName: 'Forged' }, { 'x-csrf-token': '' }), 403, 'csrf_failed');
  });

  it('authenticates before reading or validating the body: an anonymous bad request is 401, not 400 or 422', async () => {
    const anonymous = new Client(server.baseUrl);
    const cases: [string, string][] = [
      ['application/json', '{}'],
      ['application/json', '{"botName": '],
      ['text/plain', 'hello'],
    ];
    for (const [type, body] of cases) {
      expectProblem(await anonymous.post('/api/v1/knowledge-bases', body, { 'content-type': type }), 401, 'unauthorized');
    }
    // The same for a cookie write without the CSRF token: refused before validation.
    expectProblem(await fork(alice).post('/api/v1/knowledge-bases', {}), 403, 'csrf_failed');
  });

  it('the CSRF token alone, without the session cookie, is not a credential', async () => {
    const tokenOnly = new Client(server.baseUrl);
    tokenOnly.csrfToken = alice.csrfToken;
    expectProblem(await tokenOnly.post('/api/v1/knowledge-bases', { botName: 'x' }), 401, 'unauthorized');
  });

  it('a cross-site HTML form (urlencoded, text/plain, multipart) without the token is refused with 403 before its body is read', async () => {
    const forged = fork(alice);
    const cases: [string, string, number, string][] = [
      ['application/x-www-form-urlencoded', 'botName=Forged', 403, 'csrf_failed'],
      ['text/plain', 'botName=Forged', 403, 'csrf_failed'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="botName"\r\n\r\nForged\r\n--x--\r\n', 403, 'csrf_failed'],
    ];
    for (const [type, body, status, code] of cases) {
      expectProblem(await forged.post('/api/v1/knowledge-bases', body, { 'content-type': type }), status, code);
    }
    const list = await alice.get<{ items: { botName: string }[] }>('/api/v1/knowledge-bases');
    expect(list.body.items.map((kb) => kb.botName)).not.toContain('Forged');
  });
});

describe('security', () => {
  it('marks both cookies Secure when PUBLIC_URL is https (behind a TLS proxy)', async () => {
    const port = await freePort();
    const https = await startTestServer({ PORT: String(port), PUBLIC_URL: `https://127.0.0.1:${port}` });
    try {
      // The proxy terminates TLS; the service itself listens on plain http.
      const { session, csrf } = await signInCookies(https.url);
      expect(attributes(session)).toEqual(expect.arrayContaining(['httponly', 'secure', 'samesite']));
      expect(attributes(csrf)).toContain('secure');
    } finally {
      await https.stop();
    }
  });

  it('a signed-out or tampered session cookie is refused with 401', async () => {
    const tampered = new Client(server.baseUrl);
    tampered.cookie = alice.cookie.replace(/gw_session=([^;]+)/, (_m, token: string) => `gw_session=${token.slice(0, -2)}AA`);
    tampered.csrfToken = alice.csrfToken;
    expectProblem(await tampered.get('/api/v1/knowledge-bases'), 401, 'unauthorized');
    const huge = new Client(server.baseUrl);
    huge.cookie = `gw_session=${'A'.repeat(5000)}`;
    expectProblem(await huge.get('/api/v1/knowledge-bases'), 401, 'unauthorized');
  });

  it('a malformed or unknown Authorization header is 401 with WWW-Authenticate, never falling back to the cookie', async () => {
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer gw_not_a_token', 'Bearer a b']) {
      const response = await alice.get('/api/v1/knowledge-bases', { authorization });
      expectProblem(response, 401, 'unauthorized');
      // The one bearer challenge (src/http/bearer-auth.ts): RFC 9728 metadata always named; invalid_token for a bearer attempt.
      expect(response.headers.get('www-authenticate')).toContain(`resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource/api/v1"`);
      expect(response.headers.get('www-authenticate')?.startsWith('Bearer error="invalid_token"')).toBe(authorization.startsWith('Bearer'));
    }
  });
});
