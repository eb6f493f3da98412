/** Operations endpoints (product.md §10): liveness, readiness, Prometheus metrics. */
import { Type } from 'typebox';
import type { Metrics } from '../../ops/metrics.js';
import type { App } from '../types.js';

/** A dependency readiness checks, e.g. the database or Redis. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

const tags = ['Operations'];

export function healthRoutes(app: App, checks: ReadinessCheck[], metrics: Metrics): void {
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
      const results: Record<string, string> = {};
      let ready = true;
      await Promise.all(
        checks.map(async ({ name, check }) => {
          try {
            await withTimeout(check(), 2000);
            results[name] = 'ok';
          } catch {
            // The reason stays in the server: readiness is public and must not leak connection details.
            results[name] = 'unavailable';
            ready = false;
          }
        }),
      );
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', checks: results });
    },
  );

  app.get('/metrics', { schema: { tags, summary: 'Prometheus metrics', produces: ['text/plain'] } }, async (_request, reply) => {
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
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
