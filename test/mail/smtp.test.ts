/**
 * Real mail delivery: with SMTP_URL set, the sign-in code travels over SMTP to
 * a real SMTP server started here, from MAIL_FROM, with the credentials of the
 * URL; there is then no development outbox.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type TestServer } from '../support/server.js';
import { expectProblem, startTestServer, uniqueEmail } from '../api/helpers.js';

interface Received {
  from: string | undefined;
  to: string[];
  user: string | undefined;
  raw: string;
}

/** A local SMTP server that requires AUTH and keeps every message it receives. */
async function startSmtp(credentials: { user: string; pass: string }) {
  const received: Received[] = [];
  const waiting: ((m: Received) => void)[] = [];
  const smtp = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === credentials.user && auth.password === credentials.pass) return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const message: Received = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        received.push(message);
        for (const resolve of waiting.splice(0)) resolve(message);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  return {
    port,
    received,
    /** The next message to `to` (already received or still to come). */
    next(to: string): Promise<Received> {
      const already = received.find((m) => m.to.includes(to));
      if (already) return Promise.resolve(already);
      return new Promise((resolve) => {
        const wait = (m: Received) => (m.to.includes(to) ? resolve(m) : waiting.push(wait));
        waiting.push(wait);
      });
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/** Headers (unfolded, lower-case names) and the decoded text body of a simple text/plain message. */
function parse(raw: string): { headers: Record<string, string>; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.slice(split + 4);
  if (/quoted-printable/i.test(headers['content-transfer-encoding'] ?? '')) {
    body = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  }
  return { headers, body: body.replace(/\r\n/g, '\n') };
}

const credentials = { user: 'groundwork', pass: 's3cret-pass' };
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtp(credentials);
  server = await startTestServer({
    SMTP_URL: `smtp://${credentials.user}:${credentials.pass}@127.0.0.1:${smtp.port}`,
    MAIL_FROM: 'Groundwork <login@groundwork.test>',
  });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

async function requestCode(email: string) {
  return fetch(`${server.baseUrl}/api/v1/auth/email/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
}

describe('happy path', () => {
  it('delivers the sign-in code over SMTP, authenticated, from MAIL_FROM to the address', async () => {
    const email = uniqueEmail();
    const started = await requestCode(email);
    expect(started.status).toBe(202);
    const message = await smtp.next(email);
    expect(message.to).toEqual([email]);
    expect(message.from).toBe('login@groundwork.test');
    expect(message.user).toBe(credentials.user);
    const { headers, body } = parse(message.raw);
    expect(headers.from).toBe('Groundwork <login@groundwork.test>');
    expect(headers.to).toBe(email);
    expect(headers.subject).toMatch(/^Your Groundwork sign-in code: [A-HJ-NP-Z2-9]{3}-[A-HJ-NP-Z2-9]{3}$/);
    expect(headers['content-type']).toMatch(/^text\/plain/);
    const code = /Your sign-in code is ([A-HJ-NP-Z2-9]{3}-[A-HJ-NP-Z2-9]{3})\n/.exec(body)?.[1];
    expect(code).toBeDefined();
    expect(headers.subject?.endsWith(code as string)).toBe(true);
    expect(body).toContain(server.baseUrl);
  });

  it('the mailed code signs the person in', async () => {
    const email = uniqueEmail();
    expect((await requestCode(email)).status).toBe(202);
    const code = /code is (\S+)/.exec(parse((await smtp.next(email)).raw).body)?.[1] as string;
    const verified = await fetch(`${server.baseUrl}/api/v1/auth/email/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, code }),
    });
    expect(verified.status).toBe(200);
    expect(((await verified.json()) as { account: { email: string } }).account.email).toBe(email);
  });
});

describe('errors', () => {
  it('when the SMTP server is unreachable, the request fails with a problem document that says nothing internal', async () => {
    const deadPort = await freePort();
    const broken = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${deadPort}` });
    try {
      const response = await fetch(`${broken.baseUrl}/api/v1/auth/email/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: uniqueEmail() }),
      });
      const body = (await response.json()) as Record<string, unknown>;
      expectProblem({ status: response.status, headers: response.headers, body }, 500, 'internal_error');
      expect(body.detail).toBe('Something went wrong on our side. Quote the request id when you report it.');
      expect(JSON.stringify(body)).not.toMatch(new RegExp(`ECONNREFUSED|:${deadPort}|smtp|nodemailer`, 'i'));
    } finally {
      await broken.stop();
    }
  });
});

describe('security', () => {
  it('with SMTP there is no development outbox, even on a loopback origin', async () => {
    const response = await fetch(`${server.baseUrl}/dev/outbox`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  });

  it('each request gets its own code, and only the addressee receives it', async () => {
    const first = uniqueEmail();
    const second = uniqueEmail();
    await requestCode(first);
    await requestCode(second);
    const [a, b] = [await smtp.next(first), await smtp.next(second)];
    expect(a.to).toEqual([first]);
    expect(b.to).toEqual([second]);
    expect(parse(a.raw).headers.bcc).toBeUndefined();
    expect(parse(a.raw).headers.cc).toBeUndefined();
  });
});
