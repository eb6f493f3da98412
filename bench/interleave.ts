/**
 * Repetition and interleaving: every arm of a comparison (Groundwork and its references) is
 * measured `reps` times in one run, one short window each, the arms taking turns (the order
 * rotates every repetition, so no arm always runs first or right after another). Each figure is
 * then reported as the median and the range over the repetitions, and every ratio is computed
 * within a repetition (each Groundwork window against the reference window next to it) before
 * its median is taken: machine noise that lasts longer than a window hits both sides alike.
 */
import { type LoadResult, saturatedCores } from './http-load.js';
import { type Spread, spread } from './stats.js';
import type { StreamScenarioResult } from './streams.js';

export interface Arm<R> {
  key: string;
  label: string;
  /** One measured window; `rep` counts from 0 (the first may warm up longer). */
  run(rep: number): Promise<R>;
}

/** Runs every arm `reps` times, rotating the order; results by arm key, in repetition order. */
export async function interleave<R>(arms: readonly Arm<R>[], reps: number, log: (message: string) => void): Promise<Map<string, R[]>> {
  const out = new Map<string, R[]>(arms.map((a) => [a.key, []]));
  for (let rep = 0; rep < reps; rep++) {
    for (let j = 0; j < arms.length; j++) {
      const arm = arms[(rep + j) % arms.length] as Arm<R>;
      log(`repetition ${rep + 1}/${reps}: ${arm.label}`);
      (out.get(arm.key) as R[]).push(await arm.run(rep));
    }
  }
  return out;
}

export interface LoadSummary {
  label: string;
  connections: number;
  durationSec: number;
  reps: number;
  rps: Spread;
  p50: Spread;
  p99: Spread;
  cpuUsPerRequest: Spread;
  cpuCores: Spread;
  /** The dependency's (Redis's) CPU per request, when measured (LoadOptions.dependencyCpuMicros). */
  dependencyCpuUsPerRequest?: Spread;
  /** Windows in which the server used at least `saturatedCores` of a core. */
  saturatedReps: number;
  failures: number;
  responseBytes: number;
  runs: LoadResult[];
}

export function summariseLoads(runs: LoadResult[]): LoadSummary {
  const first = runs[0] as LoadResult;
  return {
    label: first.label,
    connections: first.connections,
    durationSec: first.durationSec,
    reps: runs.length,
    rps: spread(runs.map((r) => r.rps)),
    p50: spread(runs.map((r) => r.latency.p50)),
    p99: spread(runs.map((r) => r.latency.p99)),
    cpuUsPerRequest: spread(runs.map((r) => r.serverCpuUsPerRequest)),
    cpuCores: spread(runs.map((r) => r.serverCpuUtilisation)),
    ...(runs.every((r) => r.dependencyCpuUsPerRequest !== undefined) ? { dependencyCpuUsPerRequest: spread(runs.map((r) => r.dependencyCpuUsPerRequest as number)) } : {}),
    saturatedReps: runs.filter((r) => r.serverCpuUtilisation >= saturatedCores).length,
    failures: runs.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0),
    responseBytes: first.responseBytes,
    runs,
  };
}

export interface PairedRatio {
  /** Server CPU per request of the arm / of the reference, per repetition: the primary figure (×). */
  cpu: Spread;
  /**
   * req/s of the arm / of the reference over the repetitions where both servers were saturated;
   * `null` when none was (then a throughput ratio would measure the load generator).
   */
  throughput: Spread | null;
  /** Repetitions with both sides saturated, of all. */
  saturatedPairs: number;
  pairs: number;
}

/** Ratios of two arms measured in the same repetitions (index i of each list is one repetition). */
export function pairedRatio(arm: LoadResult[], reference: LoadResult[]): PairedRatio {
  const n = Math.min(arm.length, reference.length);
  const cpu: number[] = [];
  const throughput: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = arm[i] as LoadResult;
    const r = reference[i] as LoadResult;
    cpu.push(a.serverCpuUsPerRequest / r.serverCpuUsPerRequest);
    if (a.serverCpuUtilisation >= saturatedCores && r.serverCpuUtilisation >= saturatedCores) throughput.push(a.rps / r.rps);
  }
  return { cpu: spread(cpu), throughput: throughput.length > 0 ? spread(throughput) : null, saturatedPairs: throughput.length, pairs: n };
}

/**
 * SQLite's server CPU per request over the arm's own plus its dependency's (Redis's), per repetition:
 * the arm's throughput per core as a share of the reference's when neither is saturated, counting the
 * work Redis does for the arm on the same CPUs. Null when the dependency's CPU was not measured.
 */
export function perCoreShare(arm: LoadResult[], reference: LoadResult[]): Spread | null {
  const n = Math.min(arm.length, reference.length);
  const shares: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = arm[i] as LoadResult;
    const r = reference[i] as LoadResult;
    if (a.dependencyCpuUsPerRequest === undefined) return null;
    shares.push(r.serverCpuUsPerRequest / (a.serverCpuUsPerRequest + a.dependencyCpuUsPerRequest));
  }
  return shares.length > 0 ? spread(shares) : null;
}

export interface StreamSummary {
  /** bareSse, uncached or cached. */
  key: string;
  label: string;
  concurrency: number;
  reps: number;
  streamsPerRep: number;
  firstEventP99: Spread;
  firstTokenP50: Spread;
  firstTokenP99: Spread;
  doneP50: Spread;
  doneP99: Spread;
  cpuUsPerStream: Spread;
  cpuCores: Spread;
  /** Server CPU per stream / the bare SSE server's, per repetition (×). */
  cpuToReference: Spread | null;
  runs: StreamScenarioResult[];
}

export function summariseStreams(key: string, label: string, runs: StreamScenarioResult[], reference?: StreamScenarioResult[]): StreamSummary {
  const first = runs[0] as StreamScenarioResult;
  const ratio: number[] = [];
  if (reference) {
    for (let i = 0; i < Math.min(runs.length, reference.length); i++) {
      const a = runs[i]?.serverCpuUsPerStream;
      const b = reference[i]?.serverCpuUsPerStream;
      if (a !== null && a !== undefined && b !== null && b !== undefined && b > 0) ratio.push(a / b);
    }
  }
  return {
    key,
    label,
    concurrency: first.concurrency,
    reps: runs.length,
    streamsPerRep: first.streams,
    firstEventP99: spread(runs.map((r) => r.firstEvent.p99)),
    firstTokenP50: spread(runs.map((r) => r.firstToken.p50)),
    firstTokenP99: spread(runs.map((r) => r.firstToken.p99)),
    doneP50: spread(runs.map((r) => r.done.p50)),
    doneP99: spread(runs.map((r) => r.done.p99)),
    cpuUsPerStream: spread(runs.map((r) => r.serverCpuUsPerStream ?? Number.NaN)),
    cpuCores: spread(runs.map((r) => r.serverCpuUtilisation ?? Number.NaN)),
    cpuToReference: reference ? spread(ratio) : null,
    runs,
  };
}
