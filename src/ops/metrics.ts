/**
 * Prometheus metrics: one registry per app instance (tests build several). The metrics every
 * request or query adds to are kept by labelled-metrics.ts, which is cheaper per call than
 * prom-client; the rest, and the process metrics, by prom-client. `text()` writes them all.
 */
import { Counter, collectDefaultMetrics, Registry } from 'prom-client';
import { LabelledCounter, LabelledHistogram } from './labelled-metrics.js';

export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests = new LabelledCounter({
    name: 'groundwork_http_requests_total',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
  });
  readonly httpDuration = new LabelledHistogram(
    {
      name: 'groundwork_http_request_duration_seconds',
      help: 'HTTP request duration by method and route template',
      labelNames: ['method', 'route'] as const,
    },
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  );
  readonly uploads = new Counter({
    name: 'groundwork_uploads_total',
    help: 'Uploads by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly queries = new LabelledCounter({
    name: 'groundwork_queries_total',
    help: 'Answered queries by endpoint, cache hit and groundedness',
    labelNames: ['endpoint', 'cached', 'grounded'] as const,
  });
  readonly streams = new Counter({
    name: 'groundwork_streams_total',
    help: 'SSE answer streams by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'groundwork_rate_limited_total',
    help: 'Requests refused by a rate limit, by limit',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });
  readonly recordsAdded = new Counter({ name: 'groundwork_records_added_total', help: 'Records stored by uploads', registers: [this.registry] });

  constructor(withProcessMetrics = true) {
    if (withProcessMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'groundwork_' });
  }

  /** Every metric in Prometheus text format (`contentType`). */
  async text(): Promise<string> {
    const own = [this.httpRequests, this.httpDuration, this.queries].map((metric) => metric.text());
    return `${await this.registry.metrics()}\n${own.join('\n\n')}\n`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
