/**
 * Structured logs (product.md §10): the real process (the service compiled to
 * JavaScript, `node main.js`, LOG_LEVEL=info) writes JSON lines with a request id on every
 * request line, and never a cookie, an Authorization value, a session or CSRF
 * token, a query string, or uploaded content.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFromOutbox } from '../support/server.js';
import { logLines, PROCESS_TEST_TIMEOUT_MS, type ServiceProcess, startServiceProcess, uniqueEmail } from './helpers.js';

let service: ServiceProcess;
let lines: Record<string, unknown>[];
let stdout: string;
let exitCode: number | null;
const secrets = { sessionToken: '', csrfToken: '', uploaded: '', pasted: '', badJson: '', bearer: '', queryValue: '' };
const responseIds: string[] = [];

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(`${service.baseUrl}${path}`, init);
  const id = response.headers.get('x-request-id');
  if (id) responseIds.push(id);
  await response.arrayBuffer();
  return response;
}

beforeAll(async () => {
  service = await startServiceProcess({ IP_RATE_PER_SECOND: '0' });
  const json = { 'content-type': 'application/json' };
  const email = uniqueEmail('logged');

  expect((await call('/api/v1/auth/email/start', { method: 'POST', headers: json, body: JSON.stringify({ email }) })).status).toBe(202);
  const code = await codeFromOutbox(service.baseUrl, email);
  const verified = await fetch(`${service.baseUrl}/api/v1/auth/email/verify`, { method: 'POST', headers: json, body: JSON.stringify({ email, code }) });
  expect(verified.status).toBe(200);
  responseIds.push(verified.headers.get('x-request-id') as string);
  const cookie = verified.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  secrets.sessionToken = /gw_session=([^;]+)/.exec(cookie)?.[1] as string;
  secrets.csrfToken = ((await verified.json()) as { csrfToken: string }).csrfToken;
  const auth = { cookie, 'x-csrf-token': secrets.csrfToken };

  const created = await fetch(`${service.baseUrl}/api/v1/knowledge-bases`, {
    method: 'POST',
    headers: { ...json, ...auth },
    body: JSON.stringify({ botName: 'Logged' }),
  });
  expect(created.status).toBe(201);
  const { ragId } = (await created.json()) as { ragId: string };

  secrets.uploaded = `Zebra-${randomBytes(8).toString('hex')} crossings are painted every spring.`;
  const form = new FormData();
  form.append('file', new Blob([`Q: When are crossings painted?\nA: ${secrets.uploaded}\n`]), 'secret-notes.txt');
  expect((await call(`/api/v1/knowledge-bases/${ragId}/sources`, { method: 'POST', headers: auth, body: form })).status).toBe(201);

  secrets.pasted = `Okapi-${randomBytes(8).toString('hex')} is the pasted secret.`;
  const pasted = await call(`/api/v1/knowledge-bases/${ragId}/sources`, {
    method: 'POST',
    headers: { ...json, ...auth },
    body: JSON.stringify({ name: 'Pasted', text: secrets.pasted }),
  });
  expect(pasted.status).toBe(201);

  // Bad input whose content could end up in an error message.
  secrets.badJson = `Lynx-${randomBytes(8).toString('hex')}`;
  const bad = new FormData();
  bad.append('file', new Blob([`{"question": ${secrets.badJson}}`]), 'bad.json');
  expect((await call(`/api/v1/knowledge-bases/${ragId}/sources`, { method: 'POST', headers: auth, body: bad })).status).toBe(422);

  secrets.bearer = `gw_${randomBytes(16).toString('hex')}`;
  expect((await call('/api/v1/knowledge-bases', { headers: { authorization: `Bearer ${secrets.bearer}` } })).status).toBe(401);
  secrets.queryValue = `q${randomBytes(8).toString('hex')}`;
  expect((await call(`/api/v1/knowledge-bases?token=${secrets.queryValue}`, { headers: auth })).status).toBe(200);
  expect((await call('/nowhere', { headers: { cookie: `gw_session=${secrets.sessionToken}` } })).status).toBe(404);
  expect((await call('/healthz')).status).toBe(200);

  exitCode = await service.stop();
  stdout = service.stdout();
  lines = logLines(stdout);
}, PROCESS_TEST_TIMEOUT_MS);
afterAll(() => service?.stop());

describe('happy path', () => {
  it('writes one JSON object per line with level, time and message', () => {
    expect(lines.length).toBeGreaterThan(20);
    for (const line of lines) {
      expect(typeof line.level).toBe('number');
      expect(typeof line.time).toBe('number');
      expect(typeof line.msg).toBe('string');
    }
  });

  it('every request line carries the request id the client received', () => {
    const requestLines = lines.filter((l) => 'req' in l || 'res' in l);
    expect(requestLines.length).toBeGreaterThanOrEqual(2 * responseIds.length);
    for (const line of requestLines) expect(line.reqId).toMatch(/^req_[A-Za-z0-9_-]+$/);
    const logged = new Set(requestLines.map((l) => l.reqId));
    for (const id of responseIds) expect(logged.has(id), id).toBe(true);
    // Each request id has its incoming and completed line.
    const completed = lines.filter((l) => l.msg === 'request completed');
    for (const id of responseIds) expect(completed.filter((l) => l.reqId === id).length).toBe(1);
  });

  it('logs start-up and a clean shutdown on SIGTERM', () => {
    expect(lines.some((l) => l.msg === 'Groundwork is running')).toBe(true);
    expect(lines.some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM')).toBe(true);
    expect(exitCode).toBe(0);
  });
});

describe('errors', () => {
  it('client errors are logged with their status, without the request body', () => {
    const statuses = lines.filter((l) => l.msg === 'request completed').map((l) => (l.res as { statusCode: number }).statusCode);
    expect(statuses).toEqual(expect.arrayContaining([201, 401, 404, 422]));
    expect(stdout).not.toContain(secrets.badJson);
  });
});

describe('security', () => {
  it('never logs the session cookie, the CSRF token or an Authorization value', () => {
    expect(stdout).not.toContain(secrets.sessionToken);
    expect(stdout).not.toContain(secrets.csrfToken);
    expect(stdout).not.toContain(secrets.bearer);
    expect(stdout).not.toMatch(/gw_session=|gw_csrf=/);
    for (const line of lines) {
      const headers = (line.req as { headers?: Record<string, unknown> } | undefined)?.headers;
      if (headers) {
        for (const name of ['cookie', 'authorization', 'x-api-key', 'x-csrf-token']) {
          if (name in headers) expect(headers[name]).toBe('[redacted]');
        }
      }
    }
  });

  it('never logs uploaded or pasted content', () => {
    expect(stdout).not.toContain(secrets.uploaded);
    expect(stdout).not.toContain(secrets.uploaded.split(' ')[0]);
    expect(stdout).not.toContain(secrets.pasted.split(' ')[0]);
  });

  it('logs paths without their query string', () => {
    expect(stdout).not.toContain(secrets.queryValue);
    const paths = lines.map((l) => (l.req as { path?: string } | undefined)?.path).filter((p): p is string => p !== undefined);
    expect(paths).toContain('/api/v1/knowledge-bases');
    for (const path of paths) expect(path).not.toContain('?');
  });

  it('writes nothing to stderr', () => {
    expect(service.stderr()).toBe('');
  });
});
