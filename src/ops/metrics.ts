/** Prometheus metrics: one registry per app instance (tests build several). */
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'groundwork_http_requests_total',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'groundwork_http_request_duration_seconds',
    help: 'HTTP request duration by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });
  readonly uploads = new Counter({
    name: 'groundwork_uploads_total',
    help: 'Uploads by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly queries = new Counter({
    name: 'groundwork_queries_total',
    help: 'Answered queries by endpoint, cache hit and groundedness',
    labelNames: ['endpoint', 'cached', 'grounded'] as const,
    registers: [this.registry],
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
}
