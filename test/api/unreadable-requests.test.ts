/**
 * Requests the service cannot read, and a database it cannot reach: each is a
 * clear problem document, never `500 internal_error`.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../../src/adapters/storage/postgres/dialect.js';
import { isStoreUnavailable } from '../../src/ops/store-outage.js';
import { type Client, signedInClient, type TestServer } from '../support/server.js';
import { expectProblem, startTestServer } from './helpers.js';

let server: TestServer;
let client: Client;
let ragId: string;

beforeAll(async () => {
  server = await startTestServer();
  client = await signedInClient(server.baseUrl);
  const created = await client.post<{ ragId: string }>('/api/v1/knowledge-bases', { botName: 'Bodies' });
  expect(created.status).toBe(201);
  ragId = created.body.ragId;
});
afterAll(() => server?.stop());

async function post(path: string, body: string, contentType: string) {
  const response = await fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as unknown };
}

describe('deeply nested JSON bodies', () => {
  it('answers 400 bad_request to a 100,000-deep array sent to a utility', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const response = await post('/api/tools/json-format', deep, 'application/json');
    const body = expectProblem(response, 400, 'bad_request');
    expect(body.detail).toMatch(/more than 256 levels/);
  });

  it('answers 400 bad_request to a 100,000-deep object sent to a utility', async () => {
    const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    expectProblem(await post('/api/tools/json-format', deep, 'application/json'), 400, 'bad_request');
  });

  it('refuses deep nesting on every JSON route, not only the utilities', async () => {
    const deep = `{"botName":${'['.repeat(1000)}${']'.repeat(1000)}}`;
    const response = await client.post(`/api/v1/knowledge-bases`, deep, { 'content-type': 'application/json' });
    expectProblem(response, 400, 'bad_request');
  });

  it('still runs a utility whose input holds brackets inside a string', async () => {
    const text = JSON.stringify(JSON.parse('['.repeat(300) + ']'.repeat(300)));
    const response = await post('/api/tools/json-format', JSON.stringify({ text }), 'application/json');
    expect(response.status).toBe(200);
  });
});

describe('malformed multipart bodies', () => {
  const truncated = '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello';

  it('answers 400 bad_request to a truncated multipart upload', async () => {
    const response = await client.post(`/api/v1/knowledge-bases/${ragId}/sources`, truncated, { 'content-type': 'multipart/form-data; boundary=xyz' });
    expectProblem(response, 400, 'bad_request');
  });

  it('answers 400 bad_request to a multipart upload with an empty boundary', async () => {
    const response = await client.post(`/api/v1/knowledge-bases/${ragId}/sources`, 'x', { 'content-type': 'multipart/form-data; boundary=' });
    expectProblem(response, 400, 'bad_request');
  });

  it('answers 415 to multipart sent to a utility, which reads JSON only', async () => {
    for (const contentType of ['multipart/form-data; boundary=xyz', 'multipart/form-data; boundary=']) {
      expectProblem(await post('/api/tools/lorem-ipsum', truncated, contentType), 415, 'unsupported_media_type');
    }
  });
});

describe('database unreachable', () => {
  it('answers 503 service_unavailable with Retry-After, and /readyz says so, when the database is gone', async () => {
    const broken = await startTestServer();
    try {
      const person = await signedInClient(broken.baseUrl);
      expect((await person.get('/api/v1/knowledge-bases')).status).toBe(200);
      await broken.store.close();

      const listed = await person.get('/api/v1/knowledge-bases');
      const body = expectProblem(listed, 503, 'service_unavailable');
      expect(Number(listed.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(body.retryAfterMs).toBe(Number(listed.headers.get('retry-after')) * 1000);

      const started = await fetch(`${broken.baseUrl}/api/v1/auth/email/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'someone@example.test' }),
      });
      expect(started.status).toBe(503);
      expect(started.headers.get('retry-after')).toBeTruthy();

      const ready = await fetch(`${broken.baseUrl}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toBeTruthy();
      expect(await ready.json()).toMatchObject({ status: 'unavailable', checks: { database: 'unavailable' } });
    } finally {
      await broken.stop().catch(() => undefined);
    }
  });

  it('recognises a PostgreSQL server that refuses connections as unavailable', async () => {
    const store = new PostgresStore({ connectionString: 'postgres://postgres@127.0.0.1:1/test', connectionTimeoutMillis: 2000 });
    try {
      const failure = await store.ping().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(Error);
      expect(isStoreUnavailable(failure)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('does not take a bad statement or an ordinary bug for an outage', () => {
    const db = new Database(':memory:');
    let syntax: unknown;
    try {
      db.prepare('SELEC 1');
    } catch (error) {
      syntax = error;
    } finally {
      db.close();
    }
    expect(syntax).toBeInstanceOf(Error);
    expect(isStoreUnavailable(syntax)).toBe(false);
    expect(isStoreUnavailable(new TypeError('undefined is not a function'))).toBe(false);
    expect(isStoreUnavailable(undefined)).toBe(false);
  });
});
