/**
 * The per-request metrics kept outside prom-client (src/ops/labelled-metrics.ts): their
 * Prometheus text is what prom-client writes for the same observations, and `Metrics.text()`
 * holds them next to prom-client's own.
 */
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { escapeLabelValue, LabelledCounter, LabelledHistogram } from '../../src/ops/labelled-metrics.js';
import { Metrics } from '../../src/ops/metrics.js';

const buckets = [0.001, 0.01, 0.1, 1];

/** Metric lines sorted, HELP/TYPE first: series order is not part of the format. */
function normalised(text: string): string[] {
  const lines = text.trim().split('\n');
  const head = lines.filter((line) => line.startsWith('#'));
  const body = lines.filter((line) => line && !line.startsWith('#')).sort();
  return [...head, ...body];
}

describe('LabelledCounter', () => {
  it('writes what a prom-client counter writes for the same increments', async () => {
    const ours = new LabelledCounter({ name: 'c_total', help: 'Things by kind', labelNames: ['kind', 'status'] as const });
    const registry = new Registry();
    const theirs = new Counter({ name: 'c_total', help: 'Things by kind', labelNames: ['kind', 'status'], registers: [registry] });
    for (const [kind, status, by] of [['a', '200', 1], ['b', '404', 2], ['a', '200', 3], ['say "hi"\\\n', '500', 1]] as const) {
      ours.inc({ kind, status }, by);
      theirs.inc({ kind, status }, by);
    }
    expect(normalised(ours.text())).toEqual(normalised(await registry.metrics()));
    expect(ours.value({ kind: 'a', status: '200' })).toBe(4);
    expect(ours.value({ kind: 'never', status: '200' })).toBe(0);
  });

  it('keeps series apart whose joined values would look alike', () => {
    const ours = new LabelledCounter({ name: 'j_total', help: 'h', labelNames: ['a', 'b'] as const });
    ours.inc({ a: 'x y', b: 'z' });
    ours.inc({ a: 'x', b: 'y z' });
    expect(ours.value({ a: 'x y', b: 'z' })).toBe(1);
    expect(ours.value({ a: 'x', b: 'y z' })).toBe(1);
  });
});

describe('LabelledHistogram', () => {
  it('writes what a prom-client histogram writes for the same observations', async () => {
    const ours = new LabelledHistogram({ name: 'd_seconds', help: 'Durations', labelNames: ['route'] as const }, buckets);
    const registry = new Registry();
    const theirs = new Histogram({ name: 'd_seconds', help: 'Durations', labelNames: ['route'], buckets, registers: [registry] });
    // Values on a bound fall in that bucket (le is "less than or equal"); 5 is above every bound.
    for (const [route, value] of [['/a', 0.0005], ['/a', 0.001], ['/a', 0.05], ['/b', 5], ['/a', 1]] as const) {
      ours.observe({ route }, value);
      theirs.observe({ route }, value);
    }
    expect(normalised(ours.text())).toEqual(normalised(await registry.metrics()));
  });

  it('refuses le as a label name', () => {
    expect(() => new LabelledHistogram({ name: 'x', help: 'h', labelNames: ['le'] as const }, buckets)).toThrow(/le/);
  });
});

describe('escapeLabelValue', () => {
  it('escapes backslash, double quote and line feed', () => {
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
  });
});

describe('Metrics.text', () => {
  it('holds the per-request metrics and prom-client’s, each once', async () => {
    const metrics = new Metrics(false);
    metrics.httpRequests.inc({ method: 'GET', route: '/healthz', status: '200' });
    metrics.httpDuration.observe({ method: 'GET', route: '/healthz' }, 0.002);
    metrics.queries.inc({ endpoint: 'query', cached: 'true', grounded: 'true' });
    metrics.streams.inc({ outcome: 'completed' });
    const text = await metrics.text();
    for (const name of ['groundwork_http_requests_total', 'groundwork_http_request_duration_seconds', 'groundwork_queries_total', 'groundwork_streams_total']) {
      expect(text.split('\n').filter((line) => line.startsWith(`# TYPE ${name} `))).toHaveLength(1);
    }
    expect(text).toContain('groundwork_http_requests_total{method="GET",route="/healthz",status="200"} 1');
    expect(text).toContain('groundwork_http_request_duration_seconds_bucket{le="0.0025",method="GET",route="/healthz"} 1');
    expect(text).toContain('groundwork_queries_total{endpoint="query",cached="true",grounded="true"} 1');
    expect(text.endsWith('\n')).toBe(true);
  });
});
