/**
 * `GET /api/tools` and `POST /api/tools/{id}` over HTTP: the catalogue, every
 * example through the endpoint, problem documents for bad requests (404
 * unknown tool, 422 invalid input, 413 too large), CORS for browsers, and the
 * per-IP limit.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolBodyLimit } from '../../src/http/routes/tools-api.js';
import { toolEntries } from '../../src/tools/registry.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

/** Sends only the headers of a POST announcing `length` bytes; resolves with the status the server answers before any body. */
function announce(id: string, length: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.baseUrl}/api/tools/${id}`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(length) } }, (response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      request.destroy();
    });
    request.on('error', reject);
    request.flushHeaders();
  });
}

const post = (id: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(`${server.baseUrl}/api/tools/${id}`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('GET /api/tools', () => {
  it('lists every tool with its schema, examples, page and endpoint', async () => {
    const response = await fetch(`${server.baseUrl}/api/tools`);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    const { tools } = (await response.json()) as { tools: { id: string; page: string; endpoint: string | null; inputSchema: object; examples: unknown[] }[] };
    expect(tools.map((t) => t.id)).toEqual(toolEntries.map((e) => e.meta.id));
    for (const tool of tools) {
      expect(tool.page).toBe(`/tools/${tool.id}`);
      expect(tool.endpoint).toBe(toolEntries.find((e) => e.meta.id === tool.id)?.meta.api ? `/api/tools/${tool.id}` : null);
      expect(tool.inputSchema).toHaveProperty('type', 'object');
      expect(tool.examples.length).toBeGreaterThan(0);
    }
  });

  it('is described in the OpenAPI document', async () => {
    const spec = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(spec.paths['/api/tools']).toHaveProperty('get');
    expect(spec.paths['/api/tools/{id}']).toHaveProperty('post');
  });
});

describe('POST /api/tools/{id}', () => {
  const examples = toolEntries
    .filter(({ meta }) => meta.api)
    .flatMap(({ meta }) => meta.examples.map((example) => [meta.id, example.title, example] as const));

  it.each(examples)('%s: %s', async (id, _title, example) => {
    const response = await post(id, example.input);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const output = await response.json();
    if (example.output !== undefined) expect(output).toEqual(example.output);
    if (example.outputMatches !== undefined) expect(output).toMatchObject(example.outputMatches);
  });

  it('has no server endpoint for browser-only tools', async () => {
    for (const { meta } of toolEntries.filter((e) => !e.meta.api)) {
      const response = await post(meta.id, meta.examples[0]?.input ?? {});
      expect(response.status, meta.id).toBe(404);
    }
    // The regular-expression tester never runs on the server (catastrophic backtracking).
    expect((await post('regex-tester', { pattern: '(a+)+$', text: 'aaaa!' })).status).toBe(404);
  });

  it('runs a tool with no body at all when its input may be empty', async () => {
    const response = await fetch(`${server.baseUrl}/api/tools/uuid`, { method: 'POST' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { uuids: string[] }).uuids).toHaveLength(1);
  });

  it.each([
    ['an unknown tool', 'no-such-tool', { text: 'x' }, 404, 'not_found'],
    ['an id that cannot be a tool', 'Base64', { mode: 'encode', text: 'x' }, 404, 'not_found'],
    ['a missing field', 'base64', { mode: 'encode' }, 422, 'validation_failed'],
    ['a wrong type', 'uuid', { count: '3' }, 422, 'validation_failed'],
    ['an unknown field', 'hash', { text: 'x', salt: 'y' }, 422, 'validation_failed'],
    ['an array body', 'hash', [1, 2], 422, 'validation_failed'],
    ['invalid Base64', 'base64', { mode: 'decode', text: '***' }, 422, 'validation_failed'],
    ['invalid JSON to format', 'json-format', { text: '{"a":}' }, 422, 'invalid_json'],
  ])('answers %s with a problem document', async (_name, id, body, status, code) => {
    const response = await post(id, body);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const problem = (await response.json()) as { code: string; detail: string; errors?: { location: string }[]; line?: number; column?: number };
    expect(problem.code).toBe(code);
    if (code === 'validation_failed') expect(problem.errors?.[0]?.location).toMatch(/^\/body/);
    if (code === 'invalid_json') expect(problem).toMatchObject({ line: 1, column: 6 });
  });

  it("answers a body that is not JSON with 400, another media type with 415, and more than the tool's limit with 413", async () => {
    expect((await post('hash', '{"text":')).status).toBe(400);
    expect((await post('hash', 'text', { 'content-type': 'text/plain' })).status).toBe(415);
    // Refused from Content-Length, before the body is read.
    const big = await post('hash', { text: 'x'.repeat(1024 * 1024 + 10) });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: 'payload_too_large', limitBytes: 1_000_000 });
    // Just over the limit once parsed (the check after parsing measures the input's JSON).
    const over = await post('hash', { text: 'x'.repeat(1_000_000) });
    expect(over.status).toBe(413);
    // Bigger than any tool accepts: refused from the headers alone.
    expect(await announce('hash', toolBodyLimit + 1)).toBe(413);
  });

  const apiTools = toolEntries.filter((e) => e.meta.api).map((e) => [e.meta.id, e.meta] as const);
  it.each(apiTools)('%s: 400 for broken JSON, 422 for an unknown field, 413 over its own limit', async (id, meta) => {
    expect((await post(id, '{"x":')).status).toBe(400);
    const unknown = await post(id, { ...meta.examples[0]?.input, unexpectedField: 1 });
    expect(unknown.status).toBe(422);
    expect(await unknown.json()).toMatchObject({ code: 'validation_failed', errors: [{ location: '/body' }] });
    expect(await announce(id, meta.limits.maxInputBytes + 2048)).toBe(413);
  });

  it('ends a run that exceeds the time limit, and the next run works', async () => {
    const capped = await startServer({ TOOL_TIME_LIMIT_MS: '1' });
    try {
      // Formatting ~900 kB of structured JSON takes far longer than 1 ms.
      const text = JSON.stringify(Array.from({ length: 12_000 }, (_, i) => ({ id: i, tags: ['a', 'b', 'c'], nested: { deep: { value: i } } })));
      const slow = await fetch(`${capped.baseUrl}/api/tools/json-format`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text, indent: 2 }) });
      expect(slow.status).toBe(422);
      expect(await slow.json()).toMatchObject({ code: 'time_limit_exceeded', limitMs: 1 });
      // The same process's thread pool, without the cap: the ended thread was replaced.
      const quick = await fetch(`${server.baseUrl}/api/tools/base64`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'encode', text: 'ok' }) });
      expect(quick.status).toBe(200);
    } finally {
      await capped.stop();
    }
  });

  it('answers CORS preflights for any origin, without credentials', async () => {
    const response = await fetch(`${server.baseUrl}/api/tools/hash`, {
      method: 'OPTIONS',
      headers: { origin: 'https://someone.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('POST');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('the per-IP limit', () => {
  it('covers the utilities API', async () => {
    const limited = await startServer({ IP_RATE_PER_SECOND: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const response = await fetch(`${limited.baseUrl}/api/tools/uuid`, { method: 'POST' });
        statuses.push(response.status);
        if (response.status === 429) expect(await response.json()).toMatchObject({ code: 'rate_limited', limit: 'ip' });
      }
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      expect(statuses).toContain(429);
    } finally {
      await limited.stop();
    }
  });
});
