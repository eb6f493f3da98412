/**
 * Issue 14's "one instance on PostgreSQL + Redis at least 75% of the SQLite throughput"
 * (bench/report.ts): throughput compared only when both servers were saturated; otherwise judged
 * on CPU per request, Redis's own CPU charged to the PostgreSQL + Redis instance; SKIPPED only when
 * Redis's CPU was not read.
 */
import { describe, expect, it } from 'vitest';
import type { LoadResult } from '../../bench/http-load.js';
import { pairedRatio, perCoreShare, summariseLoads } from '../../bench/interleave.js';
import { storesTarget } from '../../bench/report.js';
import type { StoresResult } from '../../bench/stores.js';

function run(label: string, cpuUs: number, cores: number, redisUs?: number): LoadResult {
  return {
    label,
    connections: 50,
    durationSec: 5,
    requests: 1000,
    rps: (cores * 1e6) / cpuUs,
    latency: { count: 1000, mean: 1, p50: 1, p90: 2, p99: 3, max: 4 },
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    serverCpuUsPerRequest: cpuUs,
    serverCpuUtilisation: cores,
    ...(redisUs === undefined ? {} : { dependencyCpuUsPerRequest: redisUs }),
    responseBytes: 600,
  };
}

function measured(sqlite: LoadResult[], postgres: LoadResult[]): StoresResult {
  return {
    status: 'measured',
    arms: { sqliteCached: summariseLoads(sqlite), postgresCached: summariseLoads(postgres), sqliteUncached: summariseLoads(sqlite), postgresUncached: summariseLoads(postgres) },
    ratios: { cached: pairedRatio(postgres, sqlite), uncached: pairedRatio(postgres, sqlite) },
  };
}

describe('the PostgreSQL + Redis throughput target', () => {
  it('takes the throughput per core, Redis counted, repetition by repetition', () => {
    const share = perCoreShare([run('pg', 75, 0.8, 25), run('pg', 60, 0.8, 40)], [run('lite', 90, 0.99), run('lite', 80, 0.99)]);
    expect(share?.median).toBeCloseTo((0.9 + 0.8) / 2, 10);
    expect(perCoreShare([run('pg', 75, 0.8)], [run('lite', 90, 0.99)])).toBeNull();
  });

  it('judges unsaturated runs on CPU per request with Redis charged to the instance: a pass and a fail', () => {
    const pass = storesTarget(measured([run('lite', 94, 0.99)], [run('pg', 75, 0.8, 27)]));
    expect(pass.skipped).toBeUndefined();
    expect(pass.pass).toBe(true);
    expect(pass.measured).toMatch(/^92% of SQLite's throughput per core, Redis's CPU counted/);
    // The instance alone would be 125% of SQLite per core; with Redis's work it is 63%.
    const fail = storesTarget(measured([run('lite', 94, 0.99)], [run('pg', 75, 0.8, 75)]));
    expect(fail.skipped).toBeUndefined();
    expect(fail.pass).toBe(false);
  });

  it('compares throughput when both were saturated, and skips only when Redis was not measured', () => {
    const saturated = storesTarget(measured([run('lite', 50, 0.98)], [run('pg', 100, 0.97, 5)]));
    expect(saturated.measured).toMatch(/^50% over 1 of 1 repetitions with both saturated/);
    expect(saturated.pass).toBe(false);
    const unmeasured = storesTarget(measured([run('lite', 94, 0.99)], [run('pg', 75, 0.8)]));
    expect(unmeasured.skipped).toMatch(/saturated/);
    expect(unmeasured.measured).toMatch(/Redis's CPU was not measured/);
  });
});
