/** Operations endpoints (product.md §10): `/healthz`, `/readyz`, `/metrics`. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { startTestServer } from './helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

async function metricsText(): Promise<string> {
  const response = await fetch(`${server.baseUrl}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

/** The value of one sample of a metric, or 0 when it has not been recorded yet. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(',');
    if (wanted.every((w) => present.includes(w))) return Number(match[3]);
  }
  return 0;
}

describe('happy path', () => {
  it('/healthz answers 200 {status: ok}', async () => {
    const response = await fetch(`${server.baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('/readyz answers 200 with the database check', async () => {
    const response = await fetch(`${server.baseUrl}/readyz`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: string; checks: Record<string, string> };
    expect(body.status).toBe('ok');
    expect(body.checks.database).toBe('ok');
    expect(Object.values(body.checks).every((v) => v === 'ok')).toBe(true);
  });

  it('/metrics is Prometheus text with groundwork_http_requests_total', async () => {
    const response = await fetch(`${server.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toContain('# TYPE groundwork_http_requests_total counter');
    expect(text).toContain('# TYPE groundwork_http_request_duration_seconds histogram');
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith('#')) continue;
      expect(line).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? -?(\d+(\.\d+)?(e[-+]?\d+)?|NaN|\+Inf|-Inf)$/);
    }
  });

  it('counts each request by method, route template and status', async () => {
    const before = await metricsText();
    await (await fetch(`${server.baseUrl}/healthz`)).arrayBuffer();
    await (await fetch(`${server.baseUrl}/api/v1/knowledge-bases/kb_some_id`)).arrayBuffer();
    const after = await metricsText();
    const health = { method: 'GET', route: '/healthz', status: '200' };
    expect(sample(after, 'groundwork_http_requests_total', health)).toBe(sample(before, 'groundwork_http_requests_total', health) + 1);
    // Labelled by the route template, not the concrete id.
    const kb = { method: 'GET', route: '/api/v1/knowledge-bases/:ragId', status: '401' };
    expect(sample(after, 'groundwork_http_requests_total', kb)).toBe(sample(before, 'groundwork_http_requests_total', kb) + 1);
    expect(after).not.toContain('kb_some_id');
  });
});

describe('errors', () => {
  it('/readyz answers 503 naming the failed check when the database is unreachable', async () => {
    const broken = await startTestServer();
    try {
      await broken.store.close();
      const response = await fetch(`${broken.baseUrl}/readyz`);
      expect(response.status).toBe(503);
      const body = (await response.json()) as { status: string; checks: Record<string, string> };
      expect(body).toMatchObject({ status: 'unavailable', checks: { database: 'unavailable' } });
      // Liveness is separate: the process is still alive.
      expect((await fetch(`${broken.baseUrl}/healthz`)).status).toBe(200);
    } finally {
      await broken.stop().catch(() => undefined);
    }
  });
});

describe('security', () => {
  it('unknown URLs do not create new metric series (no unbounded label values)', async () => {
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    const before = sample(await metricsText(), 'groundwork_http_requests_total', unmatched);
    await (await fetch(`${server.baseUrl}/random-path-4711`)).arrayBuffer();
    await (await fetch(`${server.baseUrl}/another/random-path-4712`)).arrayBuffer();
    const text = await metricsText();
    expect(text).not.toContain('random-path');
    expect(sample(text, 'groundwork_http_requests_total', unmatched)).toBe(before + 2);
  });

  it('/readyz says nothing about connection details', async () => {
    const text = await (await fetch(`${server.baseUrl}/readyz`)).text();
    expect(text).not.toMatch(/sqlite|postgres|redis:\/\/|groundwork\.db|\/tmp\//i);
  });
});
