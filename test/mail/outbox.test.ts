/**
 * Without SMTP_URL, mail goes to the log and the development outbox — which
 * exists only in development (loopback PUBLIC_URL or NODE_ENV=development)
 * and never with NODE_ENV=production or a public PUBLIC_URL. A service
 * started with defaults on a public host must not expose sign-in codes,
 * neither on a page nor in its logs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { expectProblem, logLines, outbox, PROCESS_TEST_TIMEOUT_MS, type ServiceProcess, startServiceProcess, startTestServer, uniqueEmail } from '../api/helpers.js';

/** A sign-in code as shown (`ABC-DEF`), not inside a longer token such as a request id. */
const codePattern = /(?<![A-Za-z0-9_-])[A-HJ-NP-Z2-9]{3}-[A-HJ-NP-Z2-9]{3}(?![A-Za-z0-9_-])/;

async function requestCode(origin: string, email: string): Promise<Response> {
  return fetch(`${origin}/api/v1/auth/email/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
}

describe('happy path', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.stop());

  it('on a loopback origin, the outbox holds the message, as JSON and as an HTML page', async () => {
    const email = uniqueEmail();
    expect((await requestCode(server.baseUrl, email)).status).toBe(202);
    const [message] = (await outbox(server.baseUrl)).filter((m) => m.to === email);
    expect(message).toEqual({ to: email, subject: expect.stringMatching(codePattern), text: expect.stringMatching(codePattern), sentAt: expect.any(String) });

    const page = await fetch(`${server.baseUrl}/dev/outbox`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.text()).toContain(email);
  });

  it('NODE_ENV=development keeps the outbox even on a public origin', async () => {
    const dev = await startTestServer({ PUBLIC_URL: 'https://groundwork.example', NODE_ENV: 'development' });
    try {
      expect((await fetch(`${dev.url}/dev/outbox`)).status).toBe(200);
    } finally {
      await dev.stop();
    }
  });
});

describe('errors', () => {
  it.each([
    ['NODE_ENV=production on a loopback origin', { NODE_ENV: 'production' }],
    ['a public PUBLIC_URL', { PUBLIC_URL: 'https://groundwork.example' }],
    ['a public http PUBLIC_URL', { PUBLIC_URL: 'http://groundwork.example' }],
    ['NODE_ENV=production with the default PUBLIC_URL', { NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:3000' }],
  ])('with %s there is no outbox: /dev/outbox is a 404 problem', async (_label, env) => {
    const server = await startTestServer(env);
    try {
      // Requests go to the listening address; PUBLIC_URL may name a host that does not resolve here.
      const started = await requestCode(server.url, uniqueEmail());
      expect(started.status).toBe(202);
      // An API client gets the problem document; a browser the HTML 404 page, which shows no codes either.
      const response = await fetch(`${server.url}/dev/outbox`, { headers: { accept: 'application/json' } });
      const body = (await response.json()) as Record<string, unknown>;
      expectProblem({ status: response.status, headers: response.headers, body }, 404, 'not_found');
      const page = await fetch(`${server.url}/dev/outbox`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(404);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).not.toMatch(/[A-Z0-9]{3}-[A-Z0-9]{3}/);
    } finally {
      await server.stop();
    }
  });
});

describe('security', () => {
  let service: ServiceProcess;
  const email = uniqueEmail('public');
  let lines: Record<string, unknown>[];

  beforeAll(async () => {
    // The real process, as it would run on a public host with defaults: no SMTP, no NODE_ENV.
    service = await startServiceProcess({ PUBLIC_URL: 'https://groundwork.example', IP_RATE_PER_SECOND: '0' });
    for (let k = 0; k < 3; k++) expect((await requestCode(service.baseUrl, email)).status).toBe(202);
    expect((await fetch(`${service.baseUrl}/dev/outbox`)).status).toBe(404);
    expect(await service.stop()).toBe(0);
    lines = logLines(service.stdout());
  }, PROCESS_TEST_TIMEOUT_MS);
  afterAll(() => service?.stop());

  it('warns at start-up that codes cannot be delivered', () => {
    expect(lines.some((l) => l.level === 40 && /SMTP_URL is not set/.test(String(l.msg)))).toBe(true);
  });

  it('logs that each mail was not delivered, without the code, the text or the subject', () => {
    const undelivered = lines.filter((l) => /mail not delivered/.test(String(l.msg)));
    expect(undelivered.length).toBe(3);
    for (const line of undelivered) {
      expect(JSON.stringify(line)).not.toMatch(codePattern);
      expect(JSON.stringify(line)).not.toMatch(/sign-in code|code is/i);
    }
  });

  it('no log line holds anything that looks like a sign-in code', () => {
    expect(lines.length).toBeGreaterThan(5);
    const leaking = lines.filter((l) => codePattern.test(JSON.stringify(l)));
    expect(leaking).toEqual([]);
    expect(service.stderr()).not.toMatch(codePattern);
  });
});
