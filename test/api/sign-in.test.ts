/**
 * `/api/v1/auth/email/start`, `/verify`, `/session`, `/sign-out`: sign-in by
 * one-time e-mail code. Codes expire, work once, are stored hashed, and die
 * after too many wrong guesses; an address gets a limited number of codes.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, type TestServer } from '../support/server.js';
import { codesFor, databaseDump, expectProblem, outbox, startTestServer, uniqueEmail } from './helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());
afterEach(() => {
  vi.useRealTimers();
});

const json = { 'content-type': 'application/json' };

async function start(email: string) {
  return new Client(server.baseUrl).post<{ sent: boolean; expiresInSeconds: number }>('/api/v1/auth/email/start', { email });
}

/** Requests a code and returns it as the e-mail shows it. */
async function requestCode(email: string): Promise<string> {
  const response = await start(email);
  expect(response.status).toBe(202);
  const [code] = await codesFor(server.baseUrl, email.trim().toLowerCase());
  if (!code) throw new Error(`no code for ${email}`);
  return code;
}

async function verify(email: string, code: string) {
  const response = await fetch(`${server.baseUrl}/api/v1/auth/email/verify`, { method: 'POST', headers: json, body: JSON.stringify({ email, code }) });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : text) as Record<string, unknown>,
    cookie: response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; '),
  };
}

/** A wrong code that can never be right: 0 and 1 are not in the code alphabet. */
const WRONG = '000-111';

describe('happy path', () => {
  it('e-mails a six-character code (202) and exchanges it for a session (200 with account and CSRF token)', async () => {
    const email = uniqueEmail();
    const started = await start(email);
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ sent: true, expiresInSeconds: 600 });

    const [message] = (await outbox(server.baseUrl)).filter((m) => m.to === email);
    expect(message?.subject).toMatch(/sign-in code/i);
    expect(message?.text).toMatch(/Your sign-in code is [A-HJ-NP-Z2-9]{3}-[A-HJ-NP-Z2-9]{3}\n/);
    expect(message?.text).toContain(server.baseUrl);
    const code = /code is (\S+)/.exec(message?.text ?? '')?.[1] as string;

    const verified = await verify(email, code);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ account: { accountId: expect.stringMatching(/^acc_/), email }, csrfToken: expect.any(String) });
    expect(verified.cookie).toMatch(/^gw_session=[A-Za-z0-9_-]{40,}; gw_csrf=[A-Za-z0-9_-]{20,}$/);
    expect(verified.cookie).toContain(`gw_csrf=${verified.body.csrfToken as string}`);
  });

  it('accepts the code in lower case, without the dash or with spaces', async () => {
    for (const shape of [(c: string) => c.toLowerCase(), (c: string) => c.replace('-', ''), (c: string) => ` ${c.replace('-', ' ')} `]) {
      const email = uniqueEmail();
      const code = await requestCode(email);
      expect((await verify(email, shape(code))).status).toBe(200);
    }
  });

  it('normalises the address: case and surrounding spaces lead to the same account', async () => {
    const email = uniqueEmail('Mixed.Case');
    const first = await verify(email, await requestCode(email));
    const upper = `  ${email.toUpperCase()} `;
    const second = await verify(upper, await requestCode(upper));
    expect(second.status).toBe(200);
    expect(second.body.account).toEqual(first.body.account);
    expect((first.body.account as { email: string }).email).toBe(email.toLowerCase());
  });

  it('GET /session returns the signed-in account; sign-out ends it (204) and clears the cookies', async () => {
    const email = uniqueEmail();
    const signedIn = await verify(email, await requestCode(email));
    const session = await fetch(`${server.baseUrl}/api/v1/auth/session`, { headers: { cookie: signedIn.cookie } });
    expect(session.status).toBe(200);
    expect(await session.json()).toEqual(signedIn.body);

    const csrf = signedIn.body.csrfToken as string;
    const out = await fetch(`${server.baseUrl}/api/v1/auth/sign-out`, { method: 'POST', headers: { cookie: signedIn.cookie, 'x-csrf-token': csrf } });
    expect(out.status).toBe(204);
    const cleared = out.headers.getSetCookie();
    expect(cleared.some((c) => /^gw_session=;.*Max-Age=0/.test(c))).toBe(true);
    expect(cleared.some((c) => /^gw_csrf=;.*Max-Age=0/.test(c))).toBe(true);

    // The old cookie no longer works anywhere: the session is gone on the server, not just in the browser.
    const after = await fetch(`${server.baseUrl}/api/v1/auth/session`, { headers: { cookie: signedIn.cookie } });
    expect(after.status).toBe(401);
    const api = await fetch(`${server.baseUrl}/api/v1/knowledge-bases`, { headers: { cookie: signedIn.cookie } });
    expect(api.status).toBe(401);
  });

  it('signing out without a session still answers 204', async () => {
    const out = await fetch(`${server.baseUrl}/api/v1/auth/sign-out`, { method: 'POST' });
    expect(out.status).toBe(204);
  });
});

describe('errors', () => {
  it.each([
    ['an address without @', { email: 'not-an-address' }],
    ['two addresses', { email: 'a@example.test, b@example.test' }],
    ['no address', {}],
    ['an unknown field', { email: 'a@example.test', admin: true }],
  ])('refuses %s with 422 validation_failed', async (_label, body) => {
    const response = await new Client(server.baseUrl).post('/api/v1/auth/email/start', body);
    expectProblem(response, 422, 'validation_failed', server.baseUrl);
  });

  it('a wrong code is 400 invalid_code, without an attempt count (which would tell that a code is pending)', async () => {
    const email = uniqueEmail();
    await requestCode(email);
    const wrong = await verify(email, WRONG);
    expect(expectProblem(wrong, 400, 'invalid_code', server.baseUrl)).not.toHaveProperty('attemptsLeft');
    expect(wrong.cookie).toBe('');
  });

  it('a code is single-use', async () => {
    const email = uniqueEmail();
    const code = await requestCode(email);
    expect((await verify(email, code)).status).toBe(200);
    const again = await verify(email, code);
    expectProblem(again, 400, 'invalid_code');
    expect(again.cookie).toBe('');
  });

  it('a code requested for one address does not work for another, nor before any was requested', async () => {
    const owner = uniqueEmail();
    const other = uniqueEmail();
    const code = await requestCode(owner);
    expectProblem(await verify(other, code), 400, 'invalid_code');
    expect((await verify(owner, code)).status).toBe(200);
  });

  it('a newer code does not invalidate the earlier one; signing in with either uses up both', async () => {
    const email = uniqueEmail();
    const older = await requestCode(email);
    await start(email);
    const codes = await codesFor(server.baseUrl, email);
    expect(codes.length).toBe(2);
    const newer = codes.find((c) => c !== older) ?? older;
    expect((await verify(email, older)).status).toBe(200);
    if (newer !== older) expectProblem(await verify(email, newer), 400, 'invalid_code');
  });

  it('after five wrong guesses from one requester the code is not evaluated for it: the right code then fails too (same 400); a fresh code works', async () => {
    const email = uniqueEmail();
    const code = await requestCode(email);
    for (let k = 0; k < 5; k++) expect(expectProblem(await verify(email, WRONG), 400, 'invalid_code')).not.toHaveProperty('attemptsLeft');
    expectProblem(await verify(email, code), 400, 'invalid_code');
    // A fresh code works again (the earlier one stays used up for this requester).
    await start(email);
    const fresh = (await codesFor(server.baseUrl, email)).find((c) => c !== code) as string;
    expect((await verify(email, fresh)).status).toBe(200);
  });

  it('a code expires after ten minutes', async () => {
    const email = uniqueEmail();
    const code = await requestCode(email);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10 * 60_000 + 1000);
    expectProblem(await verify(email, code), 400, 'invalid_code');
  });

  it('a code is still good just before it expires', async () => {
    const email = uniqueEmail();
    const code = await requestCode(email);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 9 * 60_000);
    expect((await verify(email, code)).status).toBe(200);
  });

  it('an address is mailed at most five codes per ten minutes: further starts answer the same 202 and send nothing; others are not affected', async () => {
    const email = uniqueEmail();
    const answers = [];
    for (let k = 0; k < 8; k++) answers.push(await start(email));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(202));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(answers[7]?.headers.get('cache-control')).toBe('no-store');
    expect((await codesFor(server.baseUrl, email)).length).toBe(5);
    expect((await start(uniqueEmail())).status).toBe(202);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10 * 60_000 + 1000);
    expect((await start(email)).status).toBe(202);
    expect((await codesFor(server.baseUrl, email)).length).toBe(6);
  });

  it('a session expires after thirty days', async () => {
    const email = uniqueEmail();
    const signedIn = await verify(email, await requestCode(email));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31 * 24 * 3600_000);
    const response = await fetch(`${server.baseUrl}/api/v1/auth/session`, { headers: { cookie: signedIn.cookie } });
    expect(response.status).toBe(401);
  });

  it('refuses a verify body without a code, or with a code that is too long, with 422', async () => {
    const email = uniqueEmail();
    expectProblem(await new Client(server.baseUrl).post('/api/v1/auth/email/verify', { email }), 422, 'validation_failed');
    expectProblem(await new Client(server.baseUrl).post('/api/v1/auth/email/verify', { email, code: 'A'.repeat(21) }), 422, 'validation_failed');
  });

  it('GET /session without a cookie, or with a forged one, is 401', async () => {
    expectProblem(await new Client(server.baseUrl).get('/api/v1/auth/session'), 401, 'unauthorized');
    const forged = new Client(server.baseUrl);
    forged.cookie = `gw_session=${'A'.repeat(43)}`;
    expectProblem(await forged.get('/api/v1/auth/session'), 401, 'unauthorized');
  });
});

describe('security', () => {
  it('no sign-in response may be stored by a cache (Cache-Control: no-store), errors included; other routes are not marked', async () => {
    const email = uniqueEmail();
    const code = await requestCode(email);
    const signedIn = await verify(email, code);
    expect(signedIn.status).toBe(200);
    const cookie = (signedIn.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
    const anonymous = new Client(server.baseUrl);
    const responses = [
      await start(uniqueEmail()),
      signedIn,
      await verify(email, 'WRONG-1'),
      await anonymous.post('/api/v1/auth/email/start', {}),
      await anonymous.get('/api/v1/auth/session', { cookie }),
      await anonymous.get('/api/v1/auth/session'),
      await anonymous.post('/api/v1/auth/sign-out', undefined, { cookie }),
    ];
    expect(responses.map((r) => r.status)).toEqual([202, 200, 400, 422, 200, 401, 204]);
    for (const response of responses) expect(response.headers.get('cache-control')).toBe('no-store');
    expect((await fetch(`${server.baseUrl}/healthz`)).headers.get('cache-control')).toBeNull();
  });

  it('stores codes and session tokens only hashed', async () => {
    const email = uniqueEmail();
    const code = await requestCode(email);
    const signedIn = await verify(email, code);
    const sessionToken = /gw_session=([^;]+)/.exec(signedIn.cookie)?.[1] as string;
    const dump = JSON.stringify(databaseDump(server));
    expect(dump).toContain(email); // the dump is real
    expect(dump).not.toContain(code);
    expect(dump).not.toContain(code.replace('-', ''));
    expect(dump).not.toContain(sessionToken);
  });

  it('answers the same whether or not the address has an account (no enumeration)', async () => {
    const known = uniqueEmail();
    await verify(known, await requestCode(known));
    const a = await start(known);
    const b = await start(uniqueEmail());
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(a.body).toEqual(b.body);
  });

  it('codes are random: two requests do not produce a predictable sequence', async () => {
    const codes = new Set<string>();
    for (let k = 0; k < 5; k++) codes.add(await requestCode(uniqueEmail()));
    expect(codes.size).toBe(5);
  });
});
