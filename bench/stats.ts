/**
 * Latency histograms (hdr-histogram-js, microsecond resolution) and the
 * summaries the report prints, in milliseconds.
 */
import * as hdr from 'hdr-histogram-js';

export type Histogram = hdr.Histogram;

/** Values in microseconds, up to 10 minutes, 3 significant digits. */
export function histogram(): Histogram {
  return hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: 3 });
}

/** Records a duration given in milliseconds (as from performance.now()). */
export function recordMs(h: Histogram, ms: number): void {
  h.recordValue(Math.max(1, Math.round(ms * 1000)));
}

export interface LatencySummary {
  count: number;
  /** Milliseconds. */
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

const ms = (us: number) => Math.round(us) / 1000;

export function summarise(h: Histogram): LatencySummary {
  if (h.totalCount === 0) return { count: 0, mean: 0, p50: 0, p90: 0, p99: 0, max: 0 };
  return {
    count: h.totalCount,
    mean: ms(h.mean),
    p50: ms(h.getValueAtPercentile(50)),
    p90: ms(h.getValueAtPercentile(90)),
    p99: ms(h.getValueAtPercentile(99)),
    max: ms(h.maxValue),
  };
}

/** Times `fn` `iterations` times after `warmup` untimed calls; milliseconds per call. */
export async function timeMany(iterations: number, warmup: number, fn: (i: number) => unknown): Promise<LatencySummary> {
  for (let i = 0; i < warmup; i++) await fn(-1 - i);
  const h = histogram();
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    await fn(i);
    recordMs(h, performance.now() - t0);
  }
  return summarise(h);
}

/** Rounds for display and JSON: 3 significant decimals for small numbers. */
export function round(value: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Median and range of repeated measurements of one figure (NaNs ignored). */
export interface Spread {
  median: number;
  min: number;
  max: number;
  /** How many finite values it summarises. */
  n: number;
}

export function spread(values: readonly number[]): Spread {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, n: 0 };
  const mid = Math.floor(n / 2);
  const median = n % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median: round(median), min: round(sorted[0] as number), max: round(sorted[n - 1] as number), n };
}
