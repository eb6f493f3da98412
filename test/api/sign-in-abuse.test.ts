/**
 * Sign-in abuse (issue 11 item 5), on a real server: nobody can lock another
 * person out of their address, mail-bomb it, burn their code with wrong
 * guesses, or learn from `verify` whether a sign-in is pending. Requesters
 * are told apart by X-Forwarded-For (TRUST_PROXY names the loopback proxy).
 * Runs on the embedded store, and on PostgreSQL when DATABASE_URL is set.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requesterKey, signInPolicy } from '../../src/identity/sign-in-service.js';
import type { TestServer } from '../support/server.js';
import { codesFor, expectProblem, outbox, startTestServer, uniqueEmail } from './helpers.js';

const VICTIM = '198.51.100.7';
const ATTACKER = '203.0.113.9';
/** A wrong code that can never be right: 0 and 1 are not in the code alphabet. */
const WRONG = '000-111';

async function call(server: TestServer, path: string, ip: string, body: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : text) as Record<string, unknown> };
}

const start = (server: TestServer, ip: string, email: string) => call(server, '/api/v1/auth/email/start', ip, { email });
const verify = (server: TestServer, ip: string, email: string, code: string) => call(server, '/api/v1/auth/email/verify', ip, { email, code });
/** The problem body without what differs per request. */
const shape = ({ requestId: _requestId, ...rest }: Record<string, unknown>) => rest;

function abuseSuite(backend: string, env: () => Record<string, string>) {
  describe(`sign-in abuse (${backend})`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ TRUST_PROXY: '127.0.0.1', ...env() });
    });
    afterAll(() => server?.stop());

    it('repeated starts for a victim address never answer 429 to the owner, mail it at most five times, and keep its pending code valid', async () => {
      const email = uniqueEmail('victim');
      expect((await start(server, VICTIM, email)).status).toBe(202);
      const [pending] = await codesFor(server.baseUrl, email);
      const attack = await Promise.all(Array.from({ length: 12 }, () => start(server, ATTACKER, email)));
      expect(attack.map((r) => r.status)).toEqual(Array(12).fill(202));
      expect(new Set(attack.map((r) => JSON.stringify(r.body)))).toEqual(new Set([JSON.stringify({ sent: true, expiresInSeconds: 600 })]));
      // The owner is not refused either, and no further mail is sent past the budget.
      const owner = await start(server, VICTIM, email);
      expect(owner.status).toBe(202);
      expect(owner.body).toEqual({ sent: true, expiresInSeconds: 600 });
      expect(await codesFor(server.baseUrl, email)).toHaveLength(signInPolicy.maxCodesPerWindow);
      // The code the owner asked for first still works.
      expect((await verify(server, VICTIM, email, pending as string)).status).toBe(200);
    });

    it("codes an attacker's starts sent to the victim's inbox work for the victim", async () => {
      const email = uniqueEmail('victim');
      for (let k = 0; k < 7; k++) await start(server, ATTACKER, email);
      const codes = await codesFor(server.baseUrl, email);
      expect(codes).toHaveLength(signInPolicy.maxCodesPerWindow);
      expect((await verify(server, VICTIM, email, codes[2] as string)).status).toBe(200);
      // Signing in used them all up.
      expect((await verify(server, VICTIM, email, codes[4] as string)).status).toBe(400);
    });

    it("one requester's wrong guesses, even 100 at once, do not kill the victim's code", async () => {
      const email = uniqueEmail('victim');
      await start(server, VICTIM, email);
      const [code] = await codesFor(server.baseUrl, email);
      const guesses = await Promise.all(Array.from({ length: 100 }, () => verify(server, ATTACKER, email, WRONG)));
      // Every answer is the same 400 or, once the attacker's own failure budget is spent, 429: never a session.
      expect(guesses.every((g) => g.status === 400 || g.status === 429)).toBe(true);
      // Fixed windows: a burst that straddles a window boundary may get two allowances, never more.
      const answered = guesses.filter((g) => g.status === 400).length;
      expect(answered).toBeGreaterThanOrEqual(signInPolicy.maxFailedVerifiesPerRequester);
      expect(answered).toBeLessThanOrEqual(2 * signInPolicy.maxFailedVerifiesPerRequester);
      expectProblem(guesses.find((g) => g.status === 429) as never, 429, 'too_many_attempts');
      expect((await verify(server, VICTIM, email, code as string)).status).toBe(200);
    });

    it('the right code from a requester that used up its guesses at this code is not evaluated (no 100th-guess win)', async () => {
      const email = uniqueEmail('victim');
      await start(server, VICTIM, email);
      const [code] = await codesFor(server.baseUrl, email);
      const attacker = '192.0.2.44';
      const wrong = await Promise.all(Array.from({ length: 20 }, () => verify(server, attacker, email, WRONG)));
      expect(wrong.every((g) => g.status === 400)).toBe(true);
      expect((await verify(server, attacker, email, code as string)).status).toBe(400);
      expect((await verify(server, VICTIM, email, code as string)).status).toBe(200);
    });

    it('a code is compared with at most ten guesses in all; the owner then gets a new code and signs in', async () => {
      const email = uniqueEmail('victim');
      await start(server, VICTIM, email);
      const [burned] = await codesFor(server.baseUrl, email);
      const ips = ['192.0.2.1', '192.0.2.2', '192.0.2.3'];
      await Promise.all(ips.flatMap((ip) => Array.from({ length: 5 }, () => verify(server, ip, email, WRONG))));
      expect((await verify(server, VICTIM, email, burned as string)).status).toBe(400);
      expect((await start(server, VICTIM, email)).status).toBe(202);
      const codes = await codesFor(server.baseUrl, email);
      expect(codes).toHaveLength(2);
      const fresh = codes.find((c) => c !== burned) ?? '';
      expect((await verify(server, VICTIM, email, fresh)).status).toBe(200);
    });

    it('verify answers the same whether or not a sign-in is pending for the address', async () => {
      const pending = uniqueEmail('pending');
      const idle = uniqueEmail('idle');
      await start(server, VICTIM, pending);
      const ip = '192.0.2.77';
      const a = await verify(server, ip, pending, WRONG);
      const b = await verify(server, ip, idle, WRONG);
      expect([a.status, b.status]).toEqual([400, 400]);
      expectProblem(a as never, 400, 'invalid_code');
      expect(shape(a.body)).toEqual(shape(b.body));
      expect([...a.headers.keys()].sort()).toEqual([...b.headers.keys()].sort());
    });

    it('refuses (429) a requester that starts too many sign-ins, and only that requester', async () => {
      const ip = '192.0.2.99';
      const results = await Promise.all(Array.from({ length: 2 * signInPolicy.maxStartsPerRequester + 10 }, () => start(server, ip, uniqueEmail('spray'))));
      // Fixed windows: a burst that straddles a window boundary may get two allowances, never more.
      const accepted = results.filter((r) => r.status === 202).length;
      expect(accepted).toBeGreaterThanOrEqual(signInPolicy.maxStartsPerRequester);
      expect(accepted).toBeLessThanOrEqual(2 * signInPolicy.maxStartsPerRequester);
      const refused = results.find((r) => r.status === 429);
      expect(expectProblem(refused as never, 429, 'too_many_attempts')).toMatchObject({ retryAfterMs: expect.any(Number) });
      expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
      const email = uniqueEmail('victim');
      expect((await start(server, VICTIM, email)).status).toBe(202);
      const mails = (await outbox(server.baseUrl)).filter((m) => m.to.startsWith('spray.'));
      expect(mails).toHaveLength(accepted);
    });
  });
}

describe('requester key', () => {
  it('counts an IPv4 address as itself and an IPv6 address by its /64', () => {
    expect(requesterKey('203.0.113.9')).toBe('203.0.113.9');
    expect(requesterKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(requesterKey('2001:db8:aa:bb:1:2:3:4')).toBe('2001:db8:aa:bb::/64');
    expect(requesterKey('2001:DB8:aa:bb::9')).toBe(requesterKey('2001:db8:00aa:bb:ffff::1'));
    expect(requesterKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(requesterKey('::1')).toBe('0:0:0:0::/64');
  });
});

abuseSuite('SQLite', () => ({}));

const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl) {
  // A schema of its own, named in the connection string's startup options.
  const schema = `gw_test_${randomBytes(6).toString('hex')}`;
  const admin = () => new pg.Client({ connectionString: databaseUrl });
  beforeAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`CREATE SCHEMA "${schema}"`);
    await client.end();
  });
  afterAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  abuseSuite('PostgreSQL', () => ({ DATABASE_URL: url.toString() }));
}
