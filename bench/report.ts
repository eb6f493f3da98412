/**
 * The benchmark's outputs: the results document (bench/results/*.json), the
 * console table and docs/performance.md, and the targets with PASS/FAIL. The
 * Markdown is regenerated from the newest complete run.
 */
import type { Breakdown } from './breakdown.js';
import type { ExtractionResult } from './extraction.js';
import type { HttpIngestResults, InProcessIngestResult } from './ingest.js';
import { type LoadSummary, type PairedRatio, perCoreShare, type StreamSummary } from './interleave.js';
import type { MemoryLimiterResult, RedisLimiterResult } from './limiter.js';
import type { OutagePhase, RedisOutageResult } from './redis-outage.js';
import type { ScaleRow } from './scale.js';
import type { StoresResult } from './stores.js';
import type { Spread } from './stats.js';

export interface Machine {
  cpus: number;
  cpuModel: string;
  totalMemoryMb: number;
  loadAverage: number[];
  loadAverageAtEnd?: number[];
  /** Share of the CPUs busy with other work during one second before the run (0–1). */
  busyAtStart?: number;
  /** Seconds spent waiting for an idle machine (BENCH_WAIT_QUIET) before measuring. */
  waitedSec?: number;
  platform: string;
  node: string;
  fastify: string;
  autocannon: string;
  gitCommit: string;
  gitDirty: boolean;
  /** CPU lists for taskset, when pinned. */
  pinning: { runner: string; servers: string } | null;
  /** The node flags Groundwork's servers ran with: package.json's `start` script's (absent in runs before session 27). */
  serverNodeFlags?: string[];
}

export interface Target {
  name: string;
  goal: string;
  measured: string;
  pass: boolean;
  /** Why the target was not judged in this run (not a failure). */
  skipped?: string;
}

export interface BenchResults {
  startedAt: string;
  durationSec: number;
  machine: Machine;
  settings: Record<string, unknown>;
  /** The scenarios this run measured (--only); the sections below are present for those. */
  scenarios: string[];
  http?: {
    /** bareFastify, bareHttp, cached, uncached, limitsOn, redis: each over every repetition. */
    arms: Record<string, LoadSummary>;
    /** Each Groundwork arm against the two references, repetition by repetition. */
    ratios: Record<string, { toFastify: PairedRatio; toNodeHttp: PairedRatio }>;
  };
  /** At 50 and 200 concurrent streams: bareSse, uncached, cached. */
  streams?: StreamSummary[];
  /** One instance on SQLite against one on PostgreSQL + Redis (memory retriever), interleaved. */
  stores?: StoresResult;
  scale?: ScaleRow[];
  redisOutage?: RedisOutageResult;
  breakdown?: Breakdown;
  ingest?: { http: HttpIngestResults; inProcess: InProcessIngestResult[] };
  extraction?: ExtractionResult[];
  limiter?: {
    memory: MemoryLimiterResult[];
    redis: RedisLimiterResult | null;
    /** Median server CPU per request with the memory limiter on (limits set high) minus off, cached query. */
    httpOverheadUsPerRequest: number;
    httpOverheadP50Ms: number;
    /** The same difference in process (injected requests, CPU time, best batch): far less noisy. */
    injectOverheadUsPerRequest: number;
  };
  targets: Target[];
}

const f = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const pct = (n: number) => (Number.isFinite(n) ? `${Math.round(n * 100)}%` : 'n/a');
const thousands = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
/** "median (min–max)", or just the value when all repetitions agree or there was one. */
const sp = (s: Spread, digits = 2, fmt: (n: number, d: number) => string = f) =>
  s.n <= 1 || s.min === s.max ? fmt(s.median, digits) : `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;
const spPct = (s: Spread) => (s.n <= 1 || s.min === s.max ? pct(s.median) : `${pct(s.median)} (${pct(s.min)}–${pct(s.max)})`);
const spThousands = (s: Spread) => sp(s, 0, (n) => thousands(n));

function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.map(String).join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

// --- targets --------------------------------------------------------------------------------------

/** Server CPU per JSON query, at most this many times bare Fastify's (issue 14). */
export const cpuRatioGoal = 1.5;
/** Stream p99 goals, ms, by concurrency: first `token` and `done`. */
export const streamGoalsMs: Record<number, number> = { 50: 10, 200: 50 };
/** Query latency of the in-memory retriever before issue 14 (quiet machine), p50 / p99 ms by records. */
export const todayQueryMs: Record<number, { p50: number; p99: number }> = {
  25: { p50: 1.7, p99: 10 },
  1000: { p50: 1.7, p99: 20 },
  10_000: { p50: 2.0, p99: 42 },
  100_000: { p50: 9.5, p99: 64 },
};
/** A 25-record knowledge base's p99 while a large index loads may exceed its p99 alone by this much (noise), ms. */
export const headOfLineAllowanceMs = 5;
const LARGE = 100_000;

function cpuTarget(r: BenchResults, key: string, what: string): Target | undefined {
  const ratio = r.http?.ratios[key]?.toFastify;
  const arm = r.http?.arms[key];
  const bare = r.http?.arms.bareFastify;
  if (!ratio || !arm || !bare) return undefined;
  return {
    name: `${what}: server CPU per request vs bare Fastify`,
    goal: `<= ${cpuRatioGoal}×`,
    measured: `${sp(ratio.cpu)}× (${f(arm.cpuUsPerRequest.median, 0)} vs ${f(bare.cpuUsPerRequest.median, 0)} µs/request; median of ${ratio.pairs} interleaved repetitions)`,
    pass: ratio.cpu.median <= cpuRatioGoal,
  };
}

function throughputTarget(r: BenchResults, key: string, what: string, goal: number): Target | undefined {
  const ratio = r.http?.ratios[key]?.toFastify;
  const arm = r.http?.arms[key];
  const bare = r.http?.arms.bareFastify;
  if (!ratio || !arm || !bare) return undefined;
  const name = `${what}: throughput vs bare Fastify (only when both saturated)`;
  if (!ratio.throughput) {
    const reason = `in no repetition were both servers saturated (>= 0.9 cores): bare Fastify ${sp(bare.cpuCores)} cores, ${what} ${sp(arm.cpuCores)}; the load generator was the limit, so req/s would not compare the servers`;
    return { name, goal: `>= ${pct(goal)}`, measured: `not judged: ${reason}`, pass: true, skipped: reason };
  }
  return {
    name,
    goal: `>= ${pct(goal)}`,
    measured: `${spPct(ratio.throughput)} over ${ratio.saturatedPairs} of ${ratio.pairs} repetitions with both saturated (${thousands(arm.rps.median)} vs ${thousands(bare.rps.median)} req/s)`,
    pass: ratio.throughput.median >= goal,
  };
}

function streamTargets(r: BenchResults): Target[] {
  if (!r.streams) return [];
  const out: Target[] = [];
  for (const [concurrency, goal] of Object.entries(streamGoalsMs).map(([c, g]) => [Number(c), g] as const)) {
    const arms = r.streams.filter((s) => s.concurrency === concurrency && s.key !== 'bareSse');
    if (arms.length === 0) continue;
    for (const [event, pick] of [
      ['first `token`', (s: StreamSummary) => s.firstTokenP99],
      ['`done`', (s: StreamSummary) => s.doneP99],
    ] as const) {
      const worst = arms.reduce((a, b) => (pick(b).median > pick(a).median ? b : a));
      out.push({
        name: `Stream ${event}, ${concurrency} concurrent streams`,
        goal: `p99 < ${goal} ms`,
        measured: `p99 ${sp(pick(worst))} ms (${worst.label}, the worse arm; ${arms.map((a) => `${a.label} ${f(pick(a).median)}`).join(', ')})`,
        pass: pick(worst).median < goal,
      });
    }
  }
  return out;
}

function scaleTargets(r: BenchResults): Target[] {
  if (!r.scale) return [];
  const out: Target[] = [];
  const rows = r.scale;
  const row = (retriever: string, kind: ScaleRow['kind'], size: number) => rows.find((x) => x.retriever === retriever && x.kind === kind && x.size === size);
  const notInRun = (what: string) => `no ${what} row in this run (--scale ${String(r.settings.scale)}; records ${rows.filter((x) => x.kind === 'records').map((x) => x.size).filter((v, i, a) => a.indexOf(v) === i).join(', ')})`;
  const skip = (name: string, goal: string, reason: string): Target => ({ name, goal, measured: `not measured: ${reason}`, pass: true, skipped: reason });
  for (const retriever of [...new Set(rows.map((x) => x.retriever))]) {
    const large = row(retriever, 'records', LARGE);
    const tag = `(${retriever} retriever)`;
    {
      const name = `Ingest → searchable, one-record upload into 100,000 records ${tag}`;
      const goal = 'p50 < 50 ms';
      out.push(
        large
          ? { name, goal, measured: `p50 ${f(large.ingestToSearchable.p50)} ms, p99 ${f(large.ingestToSearchable.p99)} ms over ${large.ingestToSearchable.count} uploads`, pass: large.ingestToSearchable.p50 < 50 }
          : skip(name, goal, notInRun('100,000-record')),
      );
    }
    {
      const name = `Cold first query at 100,000 records ${tag}`;
      const goal = '< 1 s';
      out.push(large ? { name, goal, measured: `${f(large.coldFirstQueryMs, 0)} ms`, pass: large.coldFirstQueryMs < 1000 } : skip(name, goal, notInRun('100,000-record')));
    }
    {
      const name = `25-record knowledge base's query p99 while a 100,000-record index loads ${tag}`;
      const goal = `p99 <= p99 alone + ${headOfLineAllowanceMs} ms`;
      const measuredRow = rows.find((x) => x.retriever === retriever && x.headOfLine);
      const h = measuredRow?.headOfLine;
      if (!measuredRow || !h) out.push(skip(name, goal, notInRun('head-of-line')));
      else {
        const measured = `p99 ${f(h.during.p99)} ms during (max ${f(h.during.max)} ms, ${h.during.count} queries) vs ${f(h.baseline.p99)} ms alone; the large first query took ${f(h.largeFirstQueryMs, 0)} ms (index of ${thousands(measuredRow.size)} records)`;
        const pass = h.during.count > 0 && h.during.p99 <= h.baseline.p99 + headOfLineAllowanceMs;
        out.push(measuredRow.size === LARGE ? { name, goal, measured, pass } : { name, goal, measured: `${measured}; not judged: the target is at 100,000 records`, pass, skipped: `measured at ${thousands(measuredRow.size)} records, not 100,000` });
      }
    }
    if (retriever === 'memory') {
      for (const [size, today] of Object.entries(todayQueryMs).map(([s, t]) => [Number(s), t] as const)) {
        const x = row(retriever, 'records', size);
        const name = `Query latency at ${thousands(size)} records within the figures before issue 14 ${tag}`;
        const goal = `p50 <= ${f(today.p50, 1)} ms, p99 <= ${f(today.p99, 0)} ms`;
        out.push(
          x
            ? { name, goal, measured: `p50 ${f(x.query.p50)} ms, p99 ${f(x.query.p99)} ms (${x.query.count} queries, ${r.settings.scaleQueryConnections} connections)`, pass: x.query.p50 <= today.p50 && x.query.p99 <= today.p99 }
            : skip(name, goal, notInRun(`${thousands(size)}-record`)),
        );
      }
      const small = row(retriever, 'records', 25);
      {
        const name = `Memory per 100,000 short records ${tag}`;
        const goal = '< 300 MB (peak RSS at 100,000 records − at 25)';
        out.push(
          large && small
            ? { name, goal, measured: `${f(large.peakRssMb - small.peakRssMb, 0)} MB (${f(large.peakRssMb, 0)} − ${f(small.peakRssMb, 0)} MB)`, pass: large.peakRssMb - small.peakRssMb < 300 }
            : skip(name, goal, notInRun('100,000- and 25-record')),
        );
      }
      const many = rows.filter((x) => x.retriever === retriever && x.kind === 'knowledgeBases').sort((a, b) => b.size - a.size)[0];
      {
        const name = `Memory per idle 25-record knowledge base ${tag}`;
        const goal = '< 50 KB ((RSS with N knowledge bases touched, then idle, after full collections − one) / N)';
        if (many && small && many.idleRssMb !== undefined && small.idleRssMb !== undefined) {
          const perKb = (mbs: number, one: number) => ((mbs - one) * 1024) / many.size;
          const rss = perKb(many.idleRssMb, small.idleRssMb);
          const live = perKb(many.idleLiveMb, small.idleLiveMb);
          const peak = perKb(many.peakRssMb, small.peakRssMb);
          const collected = many.idleCollected && small.idleCollected ? '' : '; NOT after collections (no gc in the server)';
          out.push({
            name,
            goal,
            measured: `${f(rss, 1)} KB at ${thousands(many.size)} knowledge bases (${f(many.idleRssMb, 0)} − ${f(small.idleRssMb, 0)} MB); live heap + array buffers ${f(live, 1)} KB; peak RSS ${f(peak, 1)} KB${collected}`,
            pass: rss < 50 && many.idleCollected && small.idleCollected,
          });
        } else out.push(skip(name, goal, 'needs a 25-record row and a knowledge-base-count row (with idle memory)'));
      }
      for (const x of rows.filter((y) => y.retriever === retriever && y.kind === 'knowledgeBases' && y.size > 2000)) {
        const name = `No throughput cliff at ${thousands(x.size)} active knowledge bases ${tag}`;
        const goal = 'server CPU per query across all of them <= 1.5× one 25-record knowledge base\'s';
        out.push(
          small
            ? { name, goal, measured: `${f(x.serverCpuUsPerQuery, 0)} vs ${f(small.serverCpuUsPerQuery, 0)} µs/query (${f(x.serverCpuUsPerQuery / small.serverCpuUsPerQuery)}×)`, pass: x.serverCpuUsPerQuery <= 1.5 * small.serverCpuUsPerQuery }
            : skip(name, goal, notInRun('25-record')),
        );
      }
    }
  }
  return out;
}

/**
 * The round trips of one query on PostgreSQL + Redis, counted by bench/round-trips.ts (a separate
 * script: it wraps the clients in process); kept here so every rewrite of the page keeps them.
 */
const ROUND_TRIPS = `- **Round trips per query on PostgreSQL + Redis** (\`npx tsx bench/round-trips.ts\`: pg's
  \`Client.query\` and ioredis's \`sendCommand\` counted in process, limits and cache on, warm).
  Before issue 14: a cached answer cost 1 PostgreSQL query (the knowledge-base row, read by every
  query for its key and content versions) and 2 Redis commands (the limits script, the cache GET),
  plus 1 (the per-address limit's script) with \`IP_RATE_PER_SECOND\` on; a new question 1 more
  (the cache SET). Now: **0 PostgreSQL queries and 1 Redis script** for a cached answer (the
  knowledge base's stamp, the limits and the cached answer in one round trip,
  \`adapters/cache/redis-admission.ts\`), and the cache SET for a new answer; since session 14 the
  per-address limit too: the query routes hand it to the admission script, which takes it first
  (\`limits/client-limit.ts\`; any other route, and a query that ends before its admission, takes it
  on its own, so every request still counts once). The row and the
  verified key come from this instance's copy, confirmed by the stamp that every committed change of
  the knowledge base (row, keys, whitelist, records) replaces; a stale copy is read again before
  anything is taken or refused; copies are dropped when Redis comes back after an outage and 10 s
  after they were read at the latest. Since session 20 the admission checks made in one turn of the
  event loop (the queries read in one poll) run as the entries of one script call
  (\`adapters/redis-script-batch.ts\`; 16 checks per call on average under the \`stores\` load), their
  arguments as one JSON argument (ioredis serialises each argument of a command on its own), and an
  answer read once is kept in process until its Redis entry expires (the script returns its PTTL), so
  a cached answer is not sent, parsed and collected again on every query. On this host the cached
  query's server CPU went from 93 to 73 µs against SQLite's 55–59 µs (1.71 → 1.18×), Redis's own from
  31 to 27 µs per query (\`--only stores\`, 2–3 repetitions).`;

/** PostgreSQL + Redis throughput, at least this share of SQLite's (issue 14). */
export const storesThroughputGoal = 0.75;

export function storesTarget(s: StoresResult): Target {
  const name = 'PostgreSQL + Redis throughput vs SQLite, one instance, cached query (memory retriever; per core, Redis counted, when not both saturated)';
  const goal = `>= ${pct(storesThroughputGoal)}`;
  if (s.status === 'skipped') return { name, goal, measured: `not measured: ${s.reason}`, pass: true, skipped: s.reason };
  const ratio = s.ratios.cached;
  const pg = s.arms.postgresCached as LoadSummary;
  const lite = s.arms.sqliteCached as LoadSummary;
  const redisCpu = pg.dependencyCpuUsPerRequest ? `, and Redis on the same host ${f(pg.dependencyCpuUsPerRequest.median, 0)} µs/request` : '';
  const cpu = `server CPU ${f(pg.cpuUsPerRequest.median, 0)} vs ${f(lite.cpuUsPerRequest.median, 0)} µs/request (${sp(ratio.cpu)}×)${redisCpu}`;
  if (!ratio.throughput) {
    // Neither saturated: judged as issue 14 asks for unsaturated pairs, on CPU per request, counting
    // Redis's CPU with the instance's (a cached query makes no PostgreSQL query: round trips below).
    const reason = `in no repetition were both servers saturated (>= 0.9 cores): SQLite ${sp(lite.cpuCores)} cores, PostgreSQL + Redis ${sp(pg.cpuCores)}`;
    const share = perCoreShare(pg.runs, lite.runs);
    if (!share) return { name, goal, measured: `not judged: ${reason}, and Redis's CPU was not measured; ${cpu}`, pass: true, skipped: reason };
    return {
      name,
      goal,
      measured: `${spPct(share)} of SQLite's throughput per core, Redis's CPU counted (${reason}; ${cpu})`,
      pass: share.median >= storesThroughputGoal,
    };
  }
  return {
    name,
    goal,
    measured: `${spPct(ratio.throughput)} over ${ratio.saturatedPairs} of ${ratio.pairs} repetitions with both saturated (${thousands(pg.rps.median)} vs ${thousands(lite.rps.median)} req/s); ${cpu}`,
    pass: ratio.throughput.median >= storesThroughputGoal,
  };
}

function storesSection(s: StoresResult | undefined): string[] {
  if (!s) return [];
  const head = '### One instance: SQLite against PostgreSQL + Redis (`/api/v1/query`, memory retriever, cache and limits on; median (min–max))';
  if (s.status === 'skipped') return ['', head, '', `Skipped: ${s.reason}.`];
  const rows = ['sqliteCached', 'postgresCached', 'sqliteUncached', 'postgresUncached'].map((key) => {
    const a = s.arms[key] as LoadSummary;
    const ratio = key === 'postgresCached' ? s.ratios.cached : key === 'postgresUncached' ? s.ratios.uncached : undefined;
    return [
      a.label,
      a.reps,
      sp(a.cpuUsPerRequest, 0),
      ratio ? `${sp(ratio.cpu)}×` : '1×',
      a.dependencyCpuUsPerRequest ? sp(a.dependencyCpuUsPerRequest, 0) : '',
      sp(a.cpuCores),
      spThousands(a.rps),
      ratio ? (ratio.throughput ? `${spPct(ratio.throughput)} (${ratio.saturatedPairs}/${ratio.pairs})` : 'not saturated') : '',
      sp(a.p50),
      sp(a.p99),
      a.failures,
    ];
  });
  return ['', head, '', table(['instance, query', 'reps', 'server CPU µs/req', '× SQLite (CPU)', 'Redis CPU µs/req', 'server CPU (cores)', 'req/s', 'req/s of SQLite', 'p50 ms', 'p99 ms', 'errors'], rows)];
}

/** Allowed rise of the p99 while Redis is down over the p99 with Redis up, ms. */
export const outageP99AllowanceMs = 5;

function outageTarget(o: RedisOutageResult): Target {
  const name = 'Redis outage: cached query, limits on';
  const goal = `p99 while down <= p99 while up + ${outageP99AllowanceMs} ms; no errors; back on Redis after the restart`;
  if (o.status === 'skipped') return { name, goal, measured: `not measured: ${o.reason}`, pass: true, skipped: o.reason };
  const phases = [o.up, o.down, o.recovered];
  const failures = phases.reduce((n, p) => n + p.non2xx + p.errors + p.timeouts, 0);
  const back = o.breakerClosedAfterMs !== null && o.redisKeys.afterRecovered > 0;
  return {
    name,
    goal,
    measured:
      `p99 ${f(o.down.latency.p99)} ms down vs ${f(o.up.latency.p99)} ms up (${f(o.p99Ratio)}×, ${o.p99DeltaMs >= 0 ? '+' : ''}${f(o.p99DeltaMs)} ms); ` +
      `worst in the first second ${f(o.firstSecond.maxMs)} ms; ${failures} errors; ` +
      (o.breakerClosedAfterMs === null ? 'breaker not closed after the restart' : `breaker closed ${f(o.breakerClosedAfterMs / 1000, 1)} s after the restart, p99 then ${f(o.recovered.latency.p99)} ms`),
    pass: o.down.latency.count > 0 && o.down.latency.p99 <= o.up.latency.p99 + outageP99AllowanceMs && failures === 0 && back,
  };
}

export function evaluateTargets(r: Omit<BenchResults, 'targets'>): Target[] {
  const full = r as BenchResults;
  const ingest = r.ingest?.http.multipart.ingestToSearchable;
  return [
    ...[cpuTarget(full, 'cached', 'Cached JSON query'), cpuTarget(full, 'uncached', 'Uncached JSON query (new questions)')].filter((t): t is Target => t !== undefined),
    ...[throughputTarget(full, 'cached', 'Cached JSON query', 0.5), throughputTarget(full, 'uncached', 'Uncached JSON query', 0.3)].filter((t): t is Target => t !== undefined),
    ...streamTargets(full),
    ...scaleTargets(full),
    ...(ingest
      ? [
          {
            name: 'Ingest-to-searchable, 25-record knowledge base (shop FAQ)',
            goal: '< 5 ms',
            measured: `p50 ${f(ingest.p50)} ms, p99 ${f(ingest.p99)} ms (HTTP upload + first query)`,
            pass: ingest.p50 < 5,
          },
        ]
      : []),
    ...(r.redisOutage ? [outageTarget(r.redisOutage)] : []),
    ...(r.stores ? [storesTarget(r.stores)] : []),
  ];
}

// --- tables ---------------------------------------------------------------------------------------

function httpSection(r: BenchResults): string[] {
  const h = r.http;
  if (!h) return [];
  const order = ['bareFastify', 'bareHttp', 'cached', 'uncached', 'limitsOn', 'redis'].filter((k) => h.arms[k]);
  const rows = order.map((key) => {
    const a = h.arms[key] as LoadSummary;
    const ratio = h.ratios[key];
    return [
      a.label,
      a.reps,
      sp(a.cpuUsPerRequest, 0),
      ratio ? `${sp(ratio.toFastify.cpu)}×` : key === 'bareFastify' ? '1×' : '',
      ratio ? `${sp(ratio.toNodeHttp.cpu)}×` : key === 'bareHttp' ? '1×' : '',
      sp(a.cpuCores),
      spThousands(a.rps),
      ratio ? (ratio.toFastify.throughput ? `${spPct(ratio.toFastify.throughput)} (${ratio.toFastify.saturatedPairs}/${ratio.toFastify.pairs})` : 'not saturated') : '',
      sp(a.p50),
      sp(a.p99),
      a.failures,
    ];
  });
  const first = h.arms[order[0] as string] as LoadSummary;
  const unsaturated = order.filter((k) => (h.arms[k] as LoadSummary).saturatedReps < (h.arms[k] as LoadSummary).reps).map((k) => (h.arms[k] as LoadSummary).label);
  return [
    `### Query cost (${first.connections} connections, ${first.durationSec} s windows, ${first.reps} interleaved repetitions; median (min–max))`,
    '',
    table(['server / endpoint', 'reps', 'server CPU µs/req', '× bare Fastify (CPU)', '× bare node:http (CPU)', 'server CPU (cores)', 'req/s', 'req/s of bare Fastify', 'p50 ms', 'p99 ms', 'errors'], rows),
    '',
    unsaturated.length > 0
      ? `Not saturated (< 0.9 cores) in at least one repetition: ${unsaturated.join('; ')}. Their req/s measure the load generator as much as the server; throughput ratios are shown only over repetitions in which both sides were saturated.`
      : 'Every server was saturated (>= 0.9 cores) in every repetition.',
  ];
}

function streamSection(r: BenchResults): string[] {
  if (!r.streams) return [];
  const rows = r.streams.map((s) => [
    s.label,
    s.concurrency,
    `${s.streamsPerRep} × ${s.reps}`,
    sp(s.firstEventP99),
    sp(s.firstTokenP50),
    sp(s.firstTokenP99),
    sp(s.doneP50),
    sp(s.doneP99),
    sp(s.cpuUsPerStream, 0),
    s.cpuToReference ? `${sp(s.cpuToReference)}×` : '1×',
    sp(s.cpuCores),
  ]);
  return [
    '',
    '### Answer streams (`POST /api/v1/query/stream`, ms from sending the request; median (min–max) over repetitions)',
    '',
    table(['server', 'at once', 'streams × reps', 'first event p99', 'first token p50', 'first token p99', 'done p50', 'done p99', 'server CPU µs/stream', '× bare SSE (CPU)', 'server CPU (cores)'], rows),
  ];
}

function scaleSection(r: BenchResults): string[] {
  if (!r.scale || r.scale.length === 0) return [];
  const rows = r.scale.map((x) => [
    x.retriever,
    x.kind === 'records' ? `${thousands(x.size)} records` : `${thousands(x.size)} KBs × 25`,
    `${f(x.ingestToSearchable.p50)} / ${f(x.ingestToSearchable.p99)}`,
    f(x.coldFirstQueryMs, 1),
    `${f(x.query.p50)} / ${f(x.query.p99)}`,
    thousands(x.queriesPerSecond),
    f(x.serverCpuUsPerQuery, 0),
    thousands(x.peakRssMb),
    x.idleRssMb === undefined ? '–' : `${f(x.idleRssMb, 0)} / ${f(x.idleLiveMb, 0)}`,
    thousands(x.startupMs),
    f(x.seedSec, 1),
  ]);
  const hol = r.scale.filter((x) => x.headOfLine);
  return [
    '',
    `### Scale (one server per row, restarted after seeding; cache off, every question new; ${String(r.settings.scaleQueryConnections)} query connections)`,
    '',
    table(['retriever', 'knowledge base', 'ingest → searchable p50 / p99 ms', 'cold first query ms', 'query p50 / p99 ms', 'queries/s', 'server CPU µs/query', 'peak RSS MB', 'idle after GC: RSS / live MB', 'start-up ms', 'seeding s'], rows),
    ...(hol.length > 0
      ? [
          '',
          table(
            ['head of line', '25-record KB alone p50 / p99 ms', 'while the large index loads p50 / p99 / max ms', 'queries during the load', 'large KB first query ms'],
            hol.map((x) => {
              const h = x.headOfLine as NonNullable<ScaleRow['headOfLine']>;
              return [`${x.retriever}, ${thousands(x.size)} records`, `${f(h.baseline.p50)} / ${f(h.baseline.p99)}`, `${f(h.during.p50)} / ${f(h.during.p99)} / ${f(h.during.max)}`, h.during.count, f(h.largeFirstQueryMs, 0)];
            }),
          ),
        ]
      : []),
  ];
}

function outageRows(o: Extract<RedisOutageResult, { status: 'measured' }>): (string | number)[][] {
  const row = (p: OutagePhase, what: string) => [
    p.label,
    what,
    f(p.durationSec, 1),
    thousands(p.rps),
    f(p.latency.p50),
    f(p.latency.p99),
    f(p.latency.max),
    f(p.serverCpuUsPerRequest, 0),
    p.non2xx,
    p.errors + p.timeouts,
  ];
  return [
    row(o.up, 'after a warm-up'),
    row(o.down, `from the SIGKILL, detection included; /readyz said "degraded" ${o.degradedAfterMs === null ? 'never' : `after ${f(o.degradedAfterMs, 0)} ms`}`),
    row(o.recovered, o.breakerClosedAfterMs === null ? 'after the restart; the breaker had not closed' : `once the breaker closed, ${f(o.breakerClosedAfterMs / 1000, 1)} s after the restart`),
  ];
}

function outageSection(o: RedisOutageResult | undefined): string[] {
  if (!o) return [];
  const head = '### Redis outage (`/api/v1/query` cached, Redis cache + limits; redis-server killed and restarted)';
  if (o.status === 'skipped') return ['', head, '', `Skipped: ${o.reason}.`];
  return [
    '',
    `${head}, ${o.connections} connections`,
    '',
    table(['phase', 'window', 's', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'server CPU µs/req', 'non-2xx', 'errors'], outageRows(o)),
    '',
    `p99 while down / while up: ${f(o.p99Ratio)}× (${o.p99DeltaMs >= 0 ? '+' : ''}${f(o.p99DeltaMs)} ms). ` +
      `First second after the kill: ${o.firstSecond.responses} responses, the slowest ${f(o.firstSecond.maxMs)} ms, ${o.firstSecond.non2xx} non-2xx. ` +
      `Keys in Redis after the up phase: ${thousands(o.redisKeys.afterUp)}; after the recovered phase: ${thousands(o.redisKeys.afterRecovered)}.`,
  ];
}

function ingestSection(r: BenchResults): string[] {
  if (!r.ingest) return [];
  const i = r.ingest;
  const ingestRows: (string | number)[][] = [
    ['HTTP multipart upload + query', f(i.http.multipart.upload.p50), f(i.http.multipart.firstQuery.p50), f(i.http.multipart.ingestToSearchable.p50), f(i.http.multipart.ingestToSearchable.p99), `${i.http.multipart.foundOnFirstQuery}/${i.http.multipart.iterations}`],
    ['HTTP JSON paste + query', f(i.http.paste.upload.p50), f(i.http.paste.firstQuery.p50), f(i.http.paste.ingestToSearchable.p50), f(i.http.paste.ingestToSearchable.p99), `${i.http.paste.foundOnFirstQuery}/${i.http.paste.iterations}`],
    ...i.inProcess.map((p) => [`in process, ${p.store}`, f(p.parts.ingest.p50), f(p.parts.getAndSearch.p50), f(p.ingestToSearchable.p50), f(p.ingestToSearchable.p99), '']),
  ];
  const parts = i.inProcess.map((p) => [p.store, f(p.parts.ingest.p50, 3), f(p.parts.extract.p50, 3), f(p.parts.allRecords.p50, 3), f(p.parts.indexBuild.p50, 3), f(p.parts.getAndSearch.p50, 3)]);
  return [
    '',
    '### Ingest-to-searchable on the shop FAQ (25 records once the new one is in), ms',
    '',
    table(['path', 'upload / ingest p50', 'first query / get+search p50', 'total p50', 'total p99', 'found by first query'], ingestRows),
    ...(parts.length > 0 ? ['', 'In process, where the time goes (p50, ms):', '', table(['store', 'ingest() total', 'extract()', 'allRecords()', 'KnowledgeIndex.build()', 'get + search'], parts)] : []),
  ];
}

function limiterSection(r: BenchResults): string[] {
  if (!r.limiter) return [];
  const l = r.limiter;
  const rows: (string | number)[][] = l.memory.map((m) => [`memory, ${m.path} path`, thousands(m.callsPerSecond), `${thousands(m.nsPerCall)} ns`, '', '']);
  if (l.redis) {
    rows.push(['Redis, sequential', thousands(1000 / l.redis.sequential.mean), `${f(l.redis.sequential.mean * 1000, 0)} µs`, f(l.redis.sequential.p50, 3), f(l.redis.sequential.p99, 3)]);
    rows.push([`Redis, ${l.redis.concurrent.inFlight} in flight`, thousands(l.redis.concurrent.callsPerSecond), '', f(l.redis.concurrent.latency.p50, 3), f(l.redis.concurrent.latency.p99, 3)]);
  }
  rows.push(['whole app in process, memory limiter on vs off (CPU)', '', `${f(l.injectOverheadUsPerRequest, 1)} µs/request`, '', '']);
  rows.push(['HTTP, memory limiter on vs off (median server CPU, interleaved)', '', `${f(l.httpOverheadUsPerRequest, 0)} µs/request`, `${f(l.httpOverheadP50Ms, 3)} (Δp50)`, '']);
  return ['', '### Limiter overhead per request (one `consume` with the ip, minute and day rules)', '', table(['limiter', 'calls/s', 'per call', 'p50 ms', 'p99 ms'], rows)];
}

/** The summary tables, shared by the console and the Markdown; only the sections this run measured. */
export function summaryTables(r: BenchResults): string {
  return [
    ...httpSection(r),
    ...streamSection(r),
    ...storesSection(r.stores),
    ...scaleSection(r),
    ...outageSection(r.redisOutage),
    ...(r.breakdown
      ? [
          '',
          "### Where a query's time goes (in process, no sockets; CPU µs per call)",
          '',
          table(
            ['step', 'CPU µs (best batch)', 'CPU µs (median batch)'],
            r.breakdown.steps.map((s) => [s.step.replace(/^ {2}/, '↳ '), f(s.cpuUs, 1), f(s.medianCpuUs, 1)]),
          ),
        ]
      : []),
    ...ingestSection(r),
    ...(r.extraction
      ? [
          '',
          '### Extraction of a 10 MB upload (in process, `extract()`)',
          '',
          table(
            ['format', 'MB', 'records', 'median ms', 'min ms', 'MB/s'],
            r.extraction.map((e) => [e.format, f(e.bytes / 1024 / 1024, 1), thousands(e.records), f(e.medianMs, 0), f(e.minMs, 0), f(e.mbPerSecond, 1)]),
          ),
        ]
      : []),
    ...limiterSection(r),
  ]
    .join('\n')
    .replace(/^\n+/, '');
}

const verdict = (t: Target) => (t.skipped ? 'SKIPPED' : t.pass ? 'PASS' : '**FAIL**');

export function targetTable(targets: Target[]): string {
  return table(
    ['target', 'goal', 'measured', 'result'],
    targets.map((t) => [t.name, t.goal, t.measured, verdict(t)]),
  );
}

export function consoleReport(r: BenchResults): string {
  const counts = { pass: r.targets.filter((t) => !t.skipped && t.pass).length, fail: r.targets.filter((t) => !t.skipped && !t.pass).length, skipped: r.targets.filter((t) => t.skipped).length };
  return [
    summaryTables(r),
    '',
    '### Targets',
    '',
    targetTable(r.targets),
    '',
    ...r.targets.map((t) => `${t.skipped ? 'SKIP' : t.pass ? 'PASS' : 'FAIL'}  ${t.name}: ${t.goal}; ${t.measured}`),
    '',
    `${counts.pass} PASS, ${counts.fail} FAIL, ${counts.skipped} SKIPPED`,
  ].join('\n');
}

/** The Method paragraph on the outage scenario (absent from results older than it). */
function outageMethod(r: BenchResults): string {
  const o = r.redisOutage;
  if (!o) return '';
  const setting = (name: string, fallback: number) => (typeof r.settings[name] === 'number' ? (r.settings[name] as number) : fallback);
  return `- **Redis outage.** The cached query (the same question every time) on the outage instance, with
  autocannon at ${o.status === 'measured' ? o.connections : setting('outageConnections', 10)} connections, latency per response in microseconds, in three
  phases of ${setting('outagePhaseSec', Number.NaN)} s: Redis up (after a ${r.settings.warmupSec} s warm-up); Redis down, from the moment
  redis-server is SIGKILLed ${setting('outageLeadInMs', 1000)} ms into a run (so the requests in flight at the kill and the
  breaker's detection count; the first second after the kill is also reported on its own); and
  Redis back, after a restart (an empty Redis on the same port) once \`/readyz\` reports Redis
  "ok", i.e. the breaker has closed and pushed the in-process counts back (waited for up to
  ${f(setting('outageRecoveryTimeoutMs', 20_000) / 1000, 0)} s). The number of keys in Redis after the first and the last phase shows that the
  cache and the limiter really used it.${o.status === 'skipped' ? ` Skipped in this run: ${o.reason}.` : ''}
`;
}

export function markdown(r: BenchResults, resultFile: string): string {
  const m = r.machine;
  const s = r.settings as Record<string, unknown> & { streamPlan?: { concurrency: number; rounds: number }[] };
  const plan = (s.streamPlan ?? []).map((p) => `${p.rounds} rounds of ${p.concurrency}`).join(' and ');
  return `# Performance

How fast Groundwork answers, streams, ingests and limits, and how it holds up as knowledge bases
grow, measured by \`npm run bench\` (\`bench/run.ts\`) against references started the same way.
This page is rewritten by every complete run from its results; the raw figures are in
\`bench/results/latest.json\` and \`${resultFile}\`. The in-memory and PostgreSQL full-text
retrievers' rankings are compared in \`docs/retrieval-backends.md\` (\`eval/retrievers.ts\`); cold index
loads and their snapshots are measured in \`docs/indexing.md\` (\`bench/index-memory.ts\`).

Last run: ${r.startedAt}, ${Math.round(r.durationSec - (m.waitedSec ?? 0))} s${m.waitedSec ? ` after ${Math.round(m.waitedSec)} s waiting for an idle machine` : ''}, \`--scale ${String(s.scale)}\`, ${String(s.reps)} repetitions; commit \`${m.gitCommit.slice(0, 12)}\`${m.gitDirty ? ' (with uncommitted changes)' : ''};
${m.cpus} × ${m.cpuModel}, ${thousands(m.totalMemoryMb)} MB RAM, ${m.platform}; Node ${m.node}, Fastify ${m.fastify}, autocannon ${m.autocannon};
${m.pinning ? `load generator pinned to CPU ${m.pinning.runner}, servers to CPU ${m.pinning.servers}` : 'not pinned'}; load average ${m.loadAverage.map((l) => f(l)).join(' / ')} at start${m.loadAverageAtEnd ? `, ${m.loadAverageAtEnd.map((l) => f(l)).join(' / ')} at the end` : ''}; ${Math.round((m.busyAtStart ?? 0) * 100)}% of the CPUs busy with other work just before the run.
${(m.busyAtStart ?? 0) > 0.15 ? '\n> **This run shared the machine with other work** (see the load above): its absolute figures are inflated and noisier than usual. Ratios within a repetition are still comparable, with care.\n' : ''}${s.scale === 'quick' ? '\n> **A quick run** (`--scale quick`): short windows and a scale table without the 100,000-record and 10,000-knowledge-base rows, so the targets at those sizes are SKIPPED. The figures check the harness; `npm run bench` (full) is the measurement.\n' : ''}
## Targets

${targetTable(r.targets)}

## Results

${summaryTables(r)}

## How to run

\`\`\`sh
npm run bench                                        # everything, full scale (the 100k rows take minutes)
npm run bench -- --scale quick                       # short windows, scale table 25 / 1,000 / 10,000 records and 100 KBs
npm run bench -- --only scale --records 25,1000 --kbs 100   # one scenario, chosen sizes
npm run bench -- --reps 5 --startup-timeout 120      # more repetitions; a longer base start-up timeout
DATABASE_URL=postgres://… npm run bench              # adds the PostgreSQL retriever to the scale table
REDIS_URL=redis://127.0.0.1:6379 npm run bench       # adds the Redis limiter and a Redis-backed server
DATABASE_URL=… REDIS_URL=… npm run bench -- --only stores   # one instance on SQLite against one on PostgreSQL + Redis
DATABASE_URL=… REDIS_URL=… npx tsx bench/round-trips.ts     # PostgreSQL queries and Redis commands per query
BENCH_PIN=0 npm run bench                            # do not pin processes to CPUs
BENCH_WAIT_QUIET=600 npm run bench                   # first wait (up to 10 min) for 6 s of an idle machine
npx tsx bench/profile.ts cached 8                    # CPU profile of one scenario (cached, uncached, limits, stores, stream, stream-uncached, bare)
\`\`\`

Scenarios for \`--only\` (comma-separated): \`http\`, \`streams\`, \`stores\`, \`scale\`, \`ingest\`, \`outage\`,
\`breakdown\`, \`extraction\`, \`limiter\`. The flags have environment equivalents (\`BENCH_SCALE\`,
\`BENCH_ONLY\`, \`BENCH_REPS\`, \`BENCH_STARTUP_TIMEOUT_SECONDS\`; \`BENCH_QUICK=1\` is \`--scale quick\`).
Every run writes \`bench/results/<timestamp>.json\` and prints the tables and one PASS / FAIL /
SKIP line per target; a run of every scenario also writes \`bench/results/latest.json\` and
rewrites this page. Only 127.0.0.1 is contacted (and \`REDIS_URL\` / \`DATABASE_URL\`, when set).
The servers run in child processes: Groundwork from its production build, as \`npm start\` runs
it (\`node <the start script's flags> bench/server-groundwork.mjs\`, importing \`dist/\`; the flags are
read from package.json's \`start\`, in this run ${m.serverNodeFlags ? m.serverNodeFlags.map((flag) => `\`${flag}\``).join(' ') : '(not recorded)'}, docs/decisions.md, Performance; the
runner first builds it when its inputs changed, \`scripts/build-if-stale.mjs\`), the references with
Node's defaults from their
sources (\`node --import tsx bench/server-bare*.ts\`: Fastify and \`node:http\` are already
JavaScript; their few lines of route code are all tsx transforms). Until session 12 Groundwork
also ran under tsx, whose transform keeps function names by calling a helper on every named
function and class as it is made, which the build does not: per request and per long-lived
closure that was work and memory production does not have (in a quick A/B on a busy host the CPU
per cached query could not be told apart). A clean environment, a temporary \`DATA_DIR\`, \`LOG_LEVEL=warn\`, and the per-address and
per-key limits off (\`IP_RATE_PER_SECOND=0\`, \`QUERY_RATE_PER_MINUTE=0\`, \`QUERY_QUOTA_PER_DAY=0\`,
\`IP_MAX_CONNECTIONS=0\`: all the load comes from one address); they are stopped at the end and
killed if the runner fails or is interrupted. A server that is not ready within its start-up
timeout fails the run: the base (30 s, \`--startup-timeout\`) plus 1 ms per record and 5 ms per
knowledge base it holds, since a server with more data may do more before it is ready.

## Method

- **References, in the same run.** Bare Fastify 5 (\`bench/bare-app.ts\`: the query route's body
  schema and an answer of the same shape and size through a response schema), bare \`node:http\`
  (\`bench/server-bare-http.ts\`: parse, check, the same answer) and a bare SSE server
  (\`bench/server-bare-sse.ts\`: the headers with \`meta\` in one write, then the \`token\` events and
  \`done\` of a real captured Groundwork stream in a second). The answer and the stream they send are
  captured from Groundwork at the start of the run.
- **Repeated and interleaved.** Every comparison is measured ${String(s.reps)} times; in each repetition every
  server gets one window, one after the other, the order rotating from one repetition to the
  next. A server's first window follows a ${String(s.warmupSec)} s warm-up, later ones a ${String(s.rewarmSec)} s one (fresh connections).
  Tables give the **median (min–max)** over the repetitions. Ratios are computed within a
  repetition, Groundwork's window against the reference window of the same repetition, and then
  their median taken, so noise slower than a window touches both sides of a ratio alike.
- **Server CPU per request is the primary figure.** Each server reports its own CPU time
  (\`process.cpuUsage()\`, user + system, over IPC) at the start and end of every measured window;
  the difference over the requests answered is its cost per request, whoever was the bottleneck.
  "× bare Fastify (CPU)" is that cost over bare Fastify's. Throughput (req/s) compares servers only
  when both were **saturated** (>= 0.9 cores of the one CPU they are pinned to) in a repetition; the
  "req/s of bare Fastify" column and the throughput targets use only such repetitions and say
  "not saturated" (SKIPPED) when there was none: below that the load generator, not the server,
  set the rate.
- **Query load.** autocannon, ${String(s.connections)} connections, pipelining 1, ${String(s.durationSec)} s windows (${String(s.secondaryDurationSec)} s for the
  limits-on and Redis rows); latency recorded per response in microseconds. Cached: the same
  question every time (every request but the first is a cache hit). Uncached: the cache-off
  instance, **every request a question never asked before in the run** (\`bench/generated.ts\`:
  the FAQ's visitor questions combined with openers, phrasings and closings, each combination once),
  so neither the answer cache nor the memo of recent question texts helps; what is reused is what
  any request reuses, the knowledge base's index. "limits on" sets the rate limits so high that
  nothing is refused while every request still runs the limiter. "Redis" (with \`REDIS_URL\`) puts the
  answer cache and the limiter in Redis.
- **Streams.** One client process runs ${plan || 'rounds of 50 and of 200'} concurrent streams per window over keep-alive
  raw sockets (\`bench/sse-client.ts\`; every chunk timestamped on arrival, before parsing), against
  the bare SSE server, the cache-off instance (every stream a new question) and the cache-on instance
  (a hit). Measured from writing the request: the complete \`meta\` event ("first event"), the first
  \`token\` event (with the cache off, after retrieval and answer planning) and the \`done\` event (the
  answer's end). The stream targets use the first \`token\` and \`done\`, at 50 and 200 streams, on the
  worse of the two Groundwork instances; \`meta\` is sent before any work and says little.
- **Scale.** One server per row, seeded through the public API (sign-in, uploads of generated FAQ
  records of about 350 bytes, at most 20,000 per file, \`bench/generated.ts\`; \`MAX_RECORDS_PER_KB\`
  and \`MAX_KNOWLEDGE_BASES\` raised for the row), then **stopped and started again** on the same data,
  so the measurements see a cold process. Rows: one knowledge base of ${(s.scaleRecords as number[] | undefined)?.map((n) => thousands(n)).join(' / ') ?? ''} records
  (including the probe below; beside it a 25-record one, see below) and ${(s.scaleKnowledgeBases as number[] | undefined)?.map((n) => thousands(n)).join(' / ') ?? ''} knowledge bases of 25 FAQ records,
  with the in-memory retriever (SQLite) and, when \`DATABASE_URL\` is set, the PostgreSQL retriever
  (PostgreSQL store, \`RETRIEVAL_BACKEND=postgres\`, a schema of its own per row, dropped afterwards).
  Cache off; every question new. **Cold first query**: the first query to the large knowledge base
  (or the first of many) after the restart, its index load or build included, once 20 queries to the
  small one (or the last of many) have warmed the process, so the process's own first requests are
  not counted. **Query p50 / p99**: closed loop from ${String(s.scaleQueryConnections)} connections for ${String(s.scaleQuerySec)} s after
  ${String(s.scaleQueryWarmupSec ?? 0)} s of untimed warm-up queries (at least 50); with many knowledge bases, round-robin over all of them (at least one full
  round), the warm-up at least a round that touched each. **Ingest → searchable**: a one-record upload
  into the (largest) knowledge base, then queries until one returns the new record; the time from
  sending the upload to that response, ${String(s.scaleIngestIterations)} times after one untimed, each probe deleted again.
  **Peak RSS**: the server's \`process.resourceUsage().maxRSS\` after all of that (seeding happened in
  another process). **Idle memory**: once the closed-loop queries have ended (every knowledge base
  touched, none busy), the server (started with \`--expose-gc\` for this, nothing else) runs three full
  collections a turn of the event loop apart and reports its RSS and its live bytes
  (\`heapUsed + arrayBuffers\`). **Head of line**, at the largest size of the run: the server is restarted once
  more; the 25-record knowledge base is queried alone from 2
  connections for ${String(s.scaleHeadOfLineBaselineSec)} s, then again while the large knowledge base's first query (its index load)
  is in flight; its p99 then is compared with its p99 alone. The 100,000-record memory target
  subtracts the 25-record row's peak RSS (the process itself) from the 100,000-record row's. The
  per-idle-knowledge-base target subtracts the 25-record row's idle RSS after collections from the
  many-knowledge-base row's and divides by their number; the same with live bytes is given beside it
  (what the knowledge bases hold; RSS also holds the heap's and the allocator's free pages), and peak
  RSS for reference (it follows the collector's growth during loading and querying, not what idle
  knowledge bases hold). The query-latency targets are the in-memory figures measured before issue 14 on a quiet
  machine (25: 1.7 / 10 ms, 1,000: 1.7 / 20, 10,000: 2.0 / 42, 100,000: 9.5 / 64).
- **Ingest-to-searchable on the shop FAQ.** On a knowledge base of 24 FAQ entries of the cache-on
  instance, a one-record upload (multipart, and a JSON paste), then queries until one returns it,
  over a keep-alive \`node:http\` client, the two ways taking turns probe by probe after three untimed
  probes of each (since session 20; before, all multipart probes ran first and alone paid for the
  process's first uploads, about 0.8 ms of the multipart p50 in a test of both orders); in process, \`KnowledgeService.ingest\` with the index
  warmed as \`compose.ts\` wires it, \`IndexRegistry.get\` and a search, on a SQLite file and on
  \`:memory:\`.
- **Breakdown.** In process, the composition of \`start()\` on a temporary SQLite file; requests
  injected into the whole app, into an app holding only the query routes and into the bare app;
  then the steps of the query path called directly. CPU time per call over batches of
  ${r.breakdown ? String(r.breakdown.callsPerBatch) : String(s.breakdownCalls)} (a quarter of that for cache misses), best and median of ${r.breakdown ? String(r.breakdown.batches) : String(s.breakdownBatches)}.
- **SQLite against PostgreSQL + Redis** (\`stores\`, with \`DATABASE_URL\` and \`REDIS_URL\`). One
  instance on SQLite without Redis and one on PostgreSQL (a schema of its own) + Redis, both with the
  in-memory retriever, the answer cache on and every limit on (set so high that nothing is refused),
  measured like the query cost above (same connections and windows, interleaved): the cached query
  and new questions. Redis's own CPU over each PostgreSQL + Redis window (\`INFO cpu\`, user + system)
  is reported per query beside the instance's: Redis runs on the same host, so its work is taken from
  the same two CPUs. The target compares throughput over the repetitions in which both were saturated;
  when there was none (the instance waits on Redis and shares the CPUs with it, so it seldom reaches
  0.9 cores), it is judged as issue 14 asks for unsaturated pairs, on CPU per request: SQLite's server
  CPU over the PostgreSQL + Redis instance's *plus Redis's*, per repetition, i.e. the throughput per
  core with Redis's work charged to the instance (a cached query makes no PostgreSQL query, below).
  SKIPPED only when Redis's CPU could not be read.
${ROUND_TRIPS}
${outageMethod(r)}- **Extraction.** Generated, realistic 10 MB files per format; one warm-up extraction, then the
  median of ${String(s.extractionIterations)}.
- **Limiter.** In process, one \`consume\` with the three rules a query checks; the memory limiter on
  the allowed path (the injected clock advances so the default limits are never reached) and the
  refused path; the Redis limiter's round trip one call at a time and with 50 in flight.

## Noise

This is a shared ${m.cpus}-core VM: absolute figures vary by ±30% between runs, and the load generator and the
servers compete for the machine even when pinned to different CPUs. That is why every comparison
is repeated and interleaved and reported with its range: trust a ratio whose range is narrow, and
treat two runs' medians within 20% of each other as the same. Server CPU per request is the
steadiest figure, but two server processes with the same code can differ by up to ±20% (JIT and heap
layout), so compare separate processes (the "limits on" and "Redis" rows) only for large differences;
the in-process breakdown resolves smaller ones. With ${m.cpus} CPUs, the load generator on one CPU often
cannot saturate the bare servers, which is why the throughput ratios are withheld for such
repetitions rather than reported too favourably. Most of a cheap request's CPU on this VM is the
kernel sending the response over the loopback (\`writev\`), which costs more when the other side is
idle and must be woken; so a ratio is not linear in the application's own cost, and figures near a
target can fall either side of it from run to run.
`;
}
