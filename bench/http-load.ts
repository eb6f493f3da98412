/**
 * Closed-loop HTTP load with autocannon: a discarded warm-up run, then the
 * measured run. Latency is recorded per response into our own microsecond
 * histogram (autocannon's own histogram has whole-millisecond buckets). The
 * server's CPU time over the measured run gives its cost per request, which
 * does not depend on whether the load generator or the server saturated.
 */
import autocannon from 'autocannon';
import type { ServerChild } from './children.js';
import { histogram, type LatencySummary, recordMs, round, summarise } from './stats.js';

export interface LoadOptions {
  label: string;
  server: ServerChild;
  path: string;
  /** One body per request, cycled per connection. */
  bodies: readonly unknown[];
  /** When set, every request's body comes from it instead (a fresh question each time: no memo hits). */
  nextBody?: () => unknown;
  headers?: Record<string, string>;
  connections: number;
  durationSec: number;
  warmupSec: number;
  /**
   * CPU µs used so far by a service the server depends on (Redis), read at the measured window's
   * start and end like the server's own: on a shared host its work competes with the server's.
   */
  dependencyCpuMicros?: () => Promise<number>;
}

export interface LoadResult {
  label: string;
  connections: number;
  durationSec: number;
  requests: number;
  /** Mean requests per second over the measured run. */
  rps: number;
  latency: LatencySummary;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Server CPU (user + system) per request, microseconds. */
  serverCpuUsPerRequest: number;
  /** Server CPU time / wall time over the run (1 = one core busy). */
  serverCpuUtilisation: number;
  /** The dependency's CPU per request over the same window, when `dependencyCpuMicros` was given. */
  dependencyCpuUsPerRequest?: number;
  responseBytes: number;
}

/** One autocannon run of `durationSec`, no warm-up; `onResponse` sees every response (status, latency in ms). */
export function cannon(options: LoadOptions, durationSec: number, onResponse?: (statusCode: number, ms: number) => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.server.url,
        connections: options.connections,
        pipelining: 1,
        duration: durationSec,
        requests: options.nextBody
          ? [
              {
                method: 'POST' as const,
                path: options.path,
                headers: { 'content-type': 'application/json', ...options.headers },
                setupRequest: (request: autocannon.Request) => ({ ...request, body: JSON.stringify((options.nextBody as () => unknown)()) }),
              },
            ]
          : options.bodies.map((body) => ({
              method: 'POST' as const,
              path: options.path,
              headers: { 'content-type': 'application/json', ...options.headers },
              body: JSON.stringify(body),
            })),
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    if (onResponse) {
      instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => onResponse(statusCode, responseTime));
    }
  });
}

/**
 * Server CPU utilisation (cores) from which a run counts as saturated: the server, pinned to one
 * CPU, was the bottleneck. Below it the load generator was, and req/s understates the server.
 */
export const saturatedCores = 0.9;

export async function load(options: LoadOptions): Promise<LoadResult> {
  if (options.warmupSec > 0) await cannon(options, options.warmupSec);
  const h = histogram();
  const cpuBefore = await options.server.cpuMicros();
  const dependencyBefore = await options.dependencyCpuMicros?.();
  const t0 = performance.now();
  const result = await cannon(options, options.durationSec, (status, ms) => {
    if (status >= 200 && status < 300) recordMs(h, ms);
  });
  const wallUs = (performance.now() - t0) * 1000;
  const cpuUs = (await options.server.cpuMicros()) - cpuBefore;
  const dependencyAfter = await options.dependencyCpuMicros?.();
  const dependencyUs = dependencyBefore === undefined || dependencyAfter === undefined ? undefined : dependencyAfter - dependencyBefore;
  const requests = result.requests.total;
  return {
    label: options.label,
    connections: options.connections,
    durationSec: options.durationSec,
    requests,
    rps: round(result.requests.average, 0),
    latency: summarise(h),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    serverCpuUsPerRequest: requests > 0 ? round(cpuUs / requests, 1) : 0,
    serverCpuUtilisation: round(cpuUs / wallUs, 2),
    ...(dependencyUs === undefined ? {} : { dependencyCpuUsPerRequest: requests > 0 ? round(dependencyUs / requests, 1) : 0 }),
    responseBytes: requests > 0 ? Math.round(result.throughput.total / requests) : 0,
  };
}
