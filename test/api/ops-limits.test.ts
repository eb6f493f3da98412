/**
 * `/readyz` and `/metrics` count toward the per-IP limit (only `/healthz` is
 * exempt), and `/metrics` answers only its bearer token when METRICS_TOKEN is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { expectProblem, startTestServer } from './helpers.js';

const token = 'metrics-token-0123456789abcdef';
let limited: TestServer;
let guarded: TestServer;

beforeAll(async () => {
  [limited, guarded] = await Promise.all([startTestServer({ IP_RATE_PER_SECOND: '2' }), startTestServer({ METRICS_TOKEN: token })]);
});
afterAll(() => Promise.all([limited?.stop(), guarded?.stop()]));

/** A burst far over the limit, sent at once: however slow the machine, most of it lands within one second. */
async function burst(path: string, count = 12): Promise<Response[]> {
  return Promise.all(Array.from({ length: count }, () => fetch(`${limited.baseUrl}${path}`)));
}

describe('per-IP limit on the operations endpoints', () => {
  for (const path of ['/readyz', '/metrics']) {
    it(`${path} answers 429 rate_limited to a burst over IP_RATE_PER_SECOND`, async () => {
      const responses = await burst(path);
      const refused = responses.filter((r) => r.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      const first = refused[0] as Response;
      const body = (await first.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ status: 429, code: 'rate_limited', limit: 'ip' });
      expect(first.headers.get('retry-after')).toBeTruthy();
      await Promise.all(responses.map((r) => r.bodyUsed || r.arrayBuffer()));
    });
  }

  it('/healthz stays exempt: a liveness probe is never refused', async () => {
    const responses = await burst('/healthz');
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
    await Promise.all(responses.map((r) => r.arrayBuffer()));
  });
});

describe('METRICS_TOKEN', () => {
  it('refuses /metrics without the token with 401', async () => {
    const response = await fetch(`${guarded.baseUrl}/metrics`);
    const text = await response.text();
    expectProblem({ status: response.status, headers: response.headers, body: JSON.parse(text) }, 401, 'unauthorized');
    expect(text).not.toContain('groundwork_http_requests_total');
  });

  it('refuses /metrics with a wrong token with 401', async () => {
    const response = await fetch(`${guarded.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}x` } });
    expect(response.status).toBe(401);
    await response.arrayBuffer();
  });

  it('serves /metrics to the right bearer token', async () => {
    const response = await fetch(`${guarded.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('# TYPE groundwork_http_requests_total counter');
  });

  it('leaves /readyz and /healthz open', async () => {
    expect((await fetch(`${guarded.baseUrl}/readyz`)).status).toBe(200);
    expect((await fetch(`${guarded.baseUrl}/healthz`)).status).toBe(200);
  });
});
