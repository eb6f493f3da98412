/**
 * Operations endpoints (product.md §10): liveness, readiness, Prometheus
 * metrics. `/readyz` and `/metrics` count toward the per-IP limit (ip-limit.ts);
 * `/metrics` also wants `Authorization: Bearer <METRICS_TOKEN>` when one is set.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Type } from 'typebox';
import { DomainError } from '../../errors.js';
import type { Metrics } from '../../ops/metrics.js';
import type { App } from '../types.js';
import { parseBearer } from '../bearer-auth.js';

/** A dependency readiness checks, e.g. the database or Redis. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
  /**
   * A dependency the instance can serve without (Redis: limits and caches fall back to the
   * process): when it fails, readiness reports it as "degraded" and stays ready.
   */
  optional?: boolean;
}

const tags = ['Operations'];

export interface HealthOptions {
  /** When set, `/metrics` answers only this bearer token. */
  metricsToken?: string | undefined;
}

/** Seconds a load balancer should wait before asking an unready instance again. */
const notReadyRetryAfterSeconds = 5;

export function healthRoutes(app: App, checks: ReadinessCheck[], metrics: Metrics, options: HealthOptions = {}): void {
  const readiness = singleFlight(() => runChecks(checks));
  const metricsAllowed = options.metricsToken === undefined ? () => true : bearerMatcher(options.metricsToken);

  app.get('/healthz', { schema: { tags, summary: 'The process is alive', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } }, async () => ({
    status: 'ok' as const,
  }));

  app.get(
    '/readyz',
    {
      schema: {
        tags,
        summary: 'The database and Redis are reachable',
        response: {
          200: Type.Object({ status: Type.String(), checks: Type.Record(Type.String(), Type.String()) }),
          503: Type.Object({ status: Type.String(), checks: Type.Record(Type.String(), Type.String()) }),
        },
      },
    },
    async (_request, reply) => {
      const { ready, results } = await readiness();
      if (!ready) reply.header('retry-after', String(notReadyRetryAfterSeconds));
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', checks: results });
    },
  );

  app.get('/metrics', { schema: { tags, summary: 'Prometheus metrics', produces: ['text/plain'] } }, async (request, reply) => {
    if (!metricsAllowed(request.headers.authorization)) {
      throw new DomainError('unauthorized', 'The metrics need Authorization: Bearer with the token this service was configured with.');
    }
    return reply.type(metrics.contentType).send(await metrics.text());
  });
}

async function runChecks(checks: ReadinessCheck[]): Promise<{ ready: boolean; results: Record<string, string> }> {
  const results: Record<string, string> = {};
  let ready = true;
  await Promise.all(
    checks.map(async ({ name, check, optional }) => {
      try {
        await withTimeout(check(), 2000);
        results[name] = 'ok';
      } catch {
        // The reason stays in the server: readiness is public and must not leak connection details.
        results[name] = optional ? 'degraded' : 'unavailable';
        if (!optional) ready = false;
      }
    }),
  );
  return { ready, results };
}

/** Concurrent callers share the run in flight: a burst of probes costs the database one check. */
function singleFlight<T>(run: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  return () => {
    inFlight ??= run().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}

/** Compares SHA-256 digests in constant time, so neither the token nor its length leaks through timing. */
function bearerMatcher(token: string): (authorization: string | undefined) => boolean {
  const expected = createHash('sha256').update(token).digest();
  return (authorization) => {
    const credential = parseBearer({ authorization: authorization === undefined ? [] : [authorization] });
    return credential.kind === 'token' && timingSafeEqual(createHash('sha256').update(credential.token).digest(), expected);
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), ms);
    }),
  ]);
}
