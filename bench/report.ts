/**
 * The benchmark's outputs: the results document (bench/results/*.json), the
 * console table and docs/performance.md. The Markdown is regenerated from the
 * newest results on every run.
 */
import type { Breakdown } from './breakdown.js';
import type { ExtractionResult } from './extraction.js';
import type { LoadResult } from './http-load.js';
import type { HttpIngestResults, InProcessIngestResult } from './ingest.js';
import type { MemoryLimiterResult, RedisLimiterResult } from './limiter.js';
import type { OutagePhase, RedisOutageResult } from './redis-outage.js';
import type { StreamScenarioResult } from './streams.js';

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
}

export interface Target {
  name: string;
  goal: string;
  measured: string;
  pass: boolean;
  /** Why the target was not measured in this run (not a failure). */
  skipped?: string;
}

export interface BenchResults {
  startedAt: string;
  durationSec: number;
  machine: Machine;
  settings: Record<string, unknown>;
  http: {
    bare: LoadResult;
    cached: LoadResult;
    uncached: LoadResult;
    limitsOn: LoadResult;
    redis: LoadResult | null;
    ratios: { cachedToBare: number; uncachedToBare: number; cachedCpuToBare: number; uncachedCpuToBare: number };
  };
  streams: { cacheOff: StreamScenarioResult[]; cacheHit: StreamScenarioResult[] };
  /** Absent from results written before the scenario existed. */
  redisOutage?: RedisOutageResult;
  breakdown: Breakdown;
  ingest: { http: HttpIngestResults; inProcess: InProcessIngestResult[] };
  extraction: ExtractionResult[];
  limiter: {
    memory: MemoryLimiterResult[];
    redis: RedisLimiterResult | null;
    /** Server CPU per request with the memory limiter on (limits set high) minus off, cached query. */
    httpOverheadUsPerRequest: number;
    httpOverheadP50Ms: number;
    /** The same difference in process (injected requests, CPU time, best batch): far less noisy. */
    injectOverheadUsPerRequest: number;
  };
  targets: Target[];
}

const f = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const pct = (n: number) => `${Math.round(n * 100)}%`;
const thousands = (n: number) => Math.round(n).toLocaleString('en-US');

function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.map(String).join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
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
  const at50 = [...r.streams.cacheOff, ...r.streams.cacheHit].filter((s) => s.concurrency === 50);
  const firstEventP99 = Math.max(...at50.map((s) => s.firstEvent.p99));
  const ingest = r.ingest.http.multipart.ingestToSearchable;
  return [
    {
      name: 'First stream event, 50 concurrent streams',
      goal: 'p99 < 10 ms',
      measured: `p99 ${f(firstEventP99)} ms (worse of cache off / cache hit)`,
      pass: firstEventP99 < 10,
    },
    {
      name: 'Ingest-to-searchable, 25-record knowledge base',
      goal: '< 5 ms',
      measured: `p50 ${f(ingest.p50)} ms, p99 ${f(ingest.p99)} ms (HTTP upload + first query)`,
      pass: ingest.p50 < 5,
    },
    {
      name: 'Cached query throughput vs bare route',
      goal: '>= 50%',
      measured: `${pct(r.http.ratios.cachedToBare)} (${thousands(r.http.cached.rps)} vs ${thousands(r.http.bare.rps)} req/s)`,
      pass: r.http.ratios.cachedToBare >= 0.5,
    },
    {
      name: 'Uncached query throughput vs bare route',
      goal: '>= 30%',
      measured: `${pct(r.http.ratios.uncachedToBare)} (${thousands(r.http.uncached.rps)} vs ${thousands(r.http.bare.rps)} req/s)`,
      pass: r.http.ratios.uncachedToBare >= 0.3,
    },
    ...(r.redisOutage ? [outageTarget(r.redisOutage)] : []),
  ];
}

function httpRows(r: BenchResults): (string | number)[][] {
  const rows = [r.http.bare, r.http.cached, r.http.uncached, r.http.limitsOn, ...(r.http.redis ? [r.http.redis] : [])];
  return rows.map((l) => [
    l.label,
    thousands(l.rps),
    pct(l.rps / r.http.bare.rps),
    f(l.latency.p50),
    f(l.latency.p99),
    f(l.serverCpuUsPerRequest, 0),
    f(l.serverCpuUtilisation),
    l.non2xx + l.errors + l.timeouts,
  ]);
}

function streamRows(list: StreamScenarioResult[], label: string): (string | number)[][] {
  return list.map((s) => [
    label,
    s.concurrency,
    s.streams,
    f(s.headers.p50),
    f(s.headers.p99),
    f(s.firstEvent.p50),
    f(s.firstEvent.p99),
    f(s.firstToken.p50),
    f(s.firstToken.p99),
    f(s.total.p99),
    thousands(s.streamsPerSecond),
    s.serverCpuUsPerStream === null ? 'n/a' : thousands(s.serverCpuUsPerStream),
    s.serverCpuUtilisation === null ? 'n/a' : f(s.serverCpuUtilisation),
  ]);
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

/** The summary tables, shared by the console and the Markdown. */
export function summaryTables(r: BenchResults): string {
  const ingestRows: (string | number)[][] = [
    ['HTTP multipart upload + query', f(r.ingest.http.multipart.upload.p50), f(r.ingest.http.multipart.firstQuery.p50), f(r.ingest.http.multipart.ingestToSearchable.p50), f(r.ingest.http.multipart.ingestToSearchable.p99), `${r.ingest.http.multipart.foundOnFirstQuery}/${r.ingest.http.multipart.iterations}`],
    ['HTTP JSON paste + query', f(r.ingest.http.paste.upload.p50), f(r.ingest.http.paste.firstQuery.p50), f(r.ingest.http.paste.ingestToSearchable.p50), f(r.ingest.http.paste.ingestToSearchable.p99), `${r.ingest.http.paste.foundOnFirstQuery}/${r.ingest.http.paste.iterations}`],
    ...r.ingest.inProcess.map((p) => [`in process, ${p.store}`, f(p.parts.ingest.p50), f(p.parts.getAndSearch.p50), f(p.ingestToSearchable.p50), f(p.ingestToSearchable.p99), '']),
  ];
  const parts = r.ingest.inProcess.map((p) => [p.store, f(p.parts.ingest.p50, 3), f(p.parts.extract.p50, 3), f(p.parts.allRecords.p50, 3), f(p.parts.indexBuild.p50, 3), f(p.parts.getAndSearch.p50, 3)]);
  const limiterRows: (string | number)[][] = r.limiter.memory.map((m) => [`memory, ${m.path} path`, thousands(m.callsPerSecond), `${thousands(m.nsPerCall)} ns`, '', '']);
  if (r.limiter.redis) {
    limiterRows.push(['Redis, sequential', thousands(1000 / r.limiter.redis.sequential.mean), `${f(r.limiter.redis.sequential.mean * 1000, 0)} µs`, f(r.limiter.redis.sequential.p50, 3), f(r.limiter.redis.sequential.p99, 3)]);
    limiterRows.push([
      `Redis, ${r.limiter.redis.concurrent.inFlight} in flight`,
      thousands(r.limiter.redis.concurrent.callsPerSecond),
      '',
      f(r.limiter.redis.concurrent.latency.p50, 3),
      f(r.limiter.redis.concurrent.latency.p99, 3),
    ]);
  }
  limiterRows.push(['whole app in process, memory limiter on vs off (CPU)', '', `${f(r.limiter.injectOverheadUsPerRequest, 1)} µs/request`, '', '']);
  limiterRows.push(['HTTP, memory limiter on vs off (server CPU, separate runs)', '', `${f(r.limiter.httpOverheadUsPerRequest, 0)} µs/request`, `${f(r.limiter.httpOverheadP50Ms, 3)} (Δp50)`, '']);

  return [
    `### Query throughput (${r.http.bare.connections} connections, ${r.http.bare.durationSec} s per run after a warm-up)`,
    '',
    table(['server / endpoint', 'req/s', 'of bare', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'server CPU (cores)', 'errors'], httpRows(r)),
    '',
    '### Answer streams (`POST /api/v1/query/stream`, ms from sending the request)',
    '',
    table(
      ['cache', 'at once', 'timed', 'headers p50', 'headers p99', 'first event p50', 'first event p99', 'first token p50', 'first token p99', 'end p99', 'streams/s', 'server CPU µs/stream', 'server CPU (cores)'],
      [...streamRows(r.streams.cacheOff, 'off'), ...streamRows(r.streams.cacheHit, 'hit')],
    ),
    ...outageSection(r.redisOutage),
    '',
    '### Where a query\'s time goes (in process, no sockets; CPU µs per call)',
    '',
    table(
      ['step', 'CPU µs (best batch)', 'CPU µs (median batch)'],
      r.breakdown.steps.map((s) => [s.step.replace(/^ {2}/, '↳ '), f(s.cpuUs, 1), f(s.medianCpuUs, 1)]),
    ),
    '',
    '### Ingest-to-searchable (25 records once the new one is in), ms',
    '',
    table(['path', 'upload / ingest p50', 'first query / get+search p50', 'total p50', 'total p99', 'found by first query'], ingestRows),
    '',
    'In process, where the time goes (p50, ms):',
    '',
    table(['store', 'ingest() total', 'extract()', 'allRecords()', 'KnowledgeIndex.build()', 'get + search'], parts),
    '',
    '### Extraction of a 10 MB upload (in process, `extract()`)',
    '',
    table(
      ['format', 'MB', 'records', 'median ms', 'min ms', 'MB/s'],
      r.extraction.map((e) => [e.format, f(e.bytes / 1024 / 1024, 1), thousands(e.records), f(e.medianMs, 0), f(e.minMs, 0), f(e.mbPerSecond, 1)]),
    ),
    '',
    '### Limiter overhead per request (one `consume` with the ip, minute and day rules)',
    '',
    table(['limiter', 'calls/s', 'per call', 'p50 ms', 'p99 ms'], limiterRows),
  ].join('\n');
}

export function targetTable(targets: Target[]): string {
  return table(
    ['target', 'goal', 'measured', 'result'],
    targets.map((t) => [t.name, t.goal, t.measured, t.skipped ? 'skipped' : t.pass ? 'pass' : '**FAIL**']),
  );
}

export function consoleReport(r: BenchResults): string {
  return [summaryTables(r), '', '### Targets', '', targetTable(r.targets)].join('\n');
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
  return `# Performance

How fast Groundwork answers, streams, ingests and limits, measured by \`npm run bench\`
(\`bench/run.ts\`) against a bare Fastify route started the same way. This page is rewritten by
every run from its results; the raw figures are in \`bench/results/latest.json\` and
\`${resultFile}\`. The in-memory and PostgreSQL full-text retrievers are compared in
\`docs/retrieval-backends.md\` (\`eval/retrievers.ts\`).

Last run: ${r.startedAt}, ${Math.round(r.durationSec - (m.waitedSec ?? 0))} s${m.waitedSec ? ` after ${Math.round(m.waitedSec)} s waiting for an idle machine` : ''}; commit \`${m.gitCommit.slice(0, 12)}\`${m.gitDirty ? ' (with uncommitted changes)' : ''};
${m.cpus} × ${m.cpuModel}, ${thousands(m.totalMemoryMb)} MB RAM, ${m.platform}; Node ${m.node}, Fastify ${m.fastify}, autocannon ${m.autocannon};
${m.pinning ? `load generator pinned to CPU ${m.pinning.runner}, servers to CPU ${m.pinning.servers}` : 'not pinned'}; load average ${m.loadAverage.map((l) => f(l)).join(' / ')} at start${m.loadAverageAtEnd ? `, ${m.loadAverageAtEnd.map((l) => f(l)).join(' / ')} at the end` : ''}; ${Math.round((m.busyAtStart ?? 0) * 100)}% of the CPUs busy with other work just before the run.
${(m.busyAtStart ?? 0) > 0.15 ? '\n> **This run shared the machine with other work** (see the load above): its absolute figures are inflated and noisier than usual. Ratios within the run are still comparable, with care.\n' : ''}
## Targets

${targetTable(r.targets)}

## Results

${summaryTables(r)}

Notes on reading the tables:

- **req/s** is autocannon's mean over the measured run; **p50/p99** are per-response latencies
  recorded with microsecond resolution. **Server CPU µs/req** is the server process's CPU time
  (user + system) over the run divided by the requests it answered: it is the cost of one request
  whoever saturated, the server or the load generator. **Server CPU (cores)** near 1.0 means the
  (pinned) server was the bottleneck; well below 1.0 means the load generator was, and the req/s
  of that row understates the server.
- The bare route validates the same body and serialises an answer of the same shape and size
  (${r.http.bare.responseBytes} bytes vs ${r.http.cached.responseBytes} for the cached answer) through a response schema.
- "limits on" sets \`IP_RATE_PER_SECOND\`, \`QUERY_RATE_PER_MINUTE\` and \`QUERY_QUOTA_PER_DAY\` so high that
  nothing is refused; every request still runs both limiter calls. Its sliding logs grow to the
  requests of the last second / minute, far longer than with the default limits (30, 10, 100).
${r.http.redis ? '- "Redis" is the multi-instance set-up: the answer cache and the limiter (limits set high) in Redis.\n' : ''}- The breakdown injects requests with light-my-request (no sockets), so it lacks the socket
  work (\`writev\` alone is a large share of a real request on this VM) but adds the injector's
  own cost; "query routes only" is a Fastify app holding just the query routes and the error
  handler, so "whole app" minus it is what the app-wide plugins and hooks cost a query.
- Streams: "first event" is the complete \`meta\` event, "first token" the first \`token\` event
  (with the cache off, after retrieval and answer planning; on a hit, the whole cached answer).
${
  r.redisOutage
    ? `- Redis outage: the claim of docs/security.md §7, that a dead Redis costs a query milliseconds,
  not a command timeout (the circuit breaker fails fast to the in-process limiter and cache), and
  that the instance goes back to Redis when it returns. "max" is the slowest response of the
  phase; in the "down" phase it is usually one in flight when Redis died, which waits out the
  breaker's 150 ms command deadline. Zero non-2xx means the limits stayed on but never refused.
`
    : ''
}
## How to run

\`\`\`sh
npm run bench                                   # about 2 minutes
REDIS_URL=redis://127.0.0.1:6379 npm run bench  # adds the Redis limiter and a Redis-backed server
BENCH_QUICK=1 npm run bench                     # shorter runs, to check the harness (noisier figures)
BENCH_PIN=0 npm run bench                       # do not pin processes to CPUs
BENCH_WAIT_QUIET=600 npm run bench              # first wait (up to 10 min) for 6 s of an idle machine
npx tsx bench/profile.ts cached 8               # CPU profile of one scenario (cached, uncached, limits, stream, bare)
\`\`\`

It writes \`bench/results/<timestamp>.json\` and \`bench/results/latest.json\`, prints the tables
and rewrites this page. Only 127.0.0.1 is contacted (and \`REDIS_URL\`, when set). With
\`redis-server\` on \`PATH\`, the outage scenario starts a throwaway one on a free loopback port,
without persistence (\`test/support/redis-process.ts\`); without it, the scenario is reported as skipped. The servers run
in child processes (\`node --import tsx bench/server-bare.ts\` and \`bench/server-groundwork.ts\`)
with the same Node flags, a temporary \`DATA_DIR\`, \`LOG_LEVEL=warn\`, and
\`IP_RATE_PER_SECOND=0\`, \`QUERY_RATE_PER_MINUTE=0\`, \`QUERY_QUOTA_PER_DAY=0\` and
\`IP_MAX_CONNECTIONS=0\` so the limits do not refuse the load (all of it comes from one address); they are stopped at the end and killed (with the throwaway redis-server) if the runner fails or is interrupted.

## Method

- **Servers.** One bare Fastify 5 server and four Groundwork instances (cache on with
  \`QUERY_CACHE_TTL_SECONDS=60\`; cache off with \`0\`; limits on; Redis when \`REDIS_URL\` is set),
  plus one for the Redis outage (limits on, \`REDIS_URL\` naming the throwaway redis-server),
  each set up through the public API as a customer would: sign-in through the development outbox,
  a knowledge base with a 25-entry shop FAQ (\`bench/faq.ts\`), a query key.
- **Throughput.** autocannon, ${r.http.bare.connections} connections, pipelining 1, a ${r.settings.warmupSec} s warm-up run that is
  discarded, then ${r.http.bare.durationSec} s measured (${r.settings.secondaryDurationSec} s for the limits-on and Redis rows). Cached: the same question every time
  (every request but the first is a cache hit). Uncached: the cache-off instance, cycling through
  ${r.settings.questions} questions (paraphrases of the FAQ and some it cannot answer). Every uncached request
  runs retrieval and the extractive answerer; what it reuses is what any request reuses: the
  knowledge base's index, each record's analysed sentences and the analysis of recent question
  texts (tokens and stems of the last 256). With the extractive answerer an answer costs about as
  much as a cache hit; the cache matters most with an LLM.
- **Streams.** One client process opens 1, 50 or 200 streams at once over keep-alive raw
  sockets (\`bench/sse-client.ts\`), round after round; warm-up rounds (at least 2 s, like the
  throughput runs' warm-up) are discarded. Each request is one prepared buffer and every chunk is
  timestamped on arrival, before it is parsed, so the client's own work (about 100–300 µs per
  stream with \`node:http\`) does not queue the 50th response behind the other 49; bodies are
  de-chunked and the events parsed with \`eventsource-parser\`; percentiles from
  \`hdr-histogram-js\`. Measured against the cache-off and the cache-on instance.
- **Ingest-to-searchable.** On a knowledge base of 24 FAQ entries, a one-record upload, then
  queries until one returns the new record among its sources; the time is the upload's response
  time plus the time to that query's response, over a keep-alive \`node:http\` client (fetch
  would add its own overhead). The probe is deleted again after each iteration.
  In process: \`KnowledgeService.ingest\` (wired to \`IndexRegistry.refresh\` as in \`compose.ts\`),
  \`IndexRegistry.get\` and a search, on a SQLite file with the service's settings and on
  \`:memory:\`, which shows what the disk's fsync costs.
- **Breakdown.** In process, the composition of \`start()\` on a temporary SQLite file; requests
  injected into the whole app, into an app holding only the query routes and into the bare app;
  then the steps of the query path called directly. CPU time per call over batches of
  ${r.breakdown.callsPerBatch} (a quarter of that for cache misses), best and median of ${r.breakdown.batches}.
${outageMethod(r)}- **Extraction.** Generated, realistic 10 MB files per format; one warm-up extraction, then the
  median of ${r.settings.extractionIterations}.
- **Limiter.** In process, one \`consume\` with the three rules a query checks; the memory limiter on
  the allowed path (the injected clock advances so the default limits are never reached) and the
  refused path; the Redis limiter's round trip one call at a time and with 50 in flight.

## Noise

This is a shared 2-core VM: the same run varies by ±30% between runs, and the load generator and
the server compete for the machine even when pinned to different CPUs. Compare **ratios within
one run** (Groundwork vs the bare route measured minutes apart on the same machine), not absolute
figures across runs or machines; treat differences under 20% between runs as noise. Server CPU per
request is the steadiest figure, but even it differs by up to ±20% between two server processes
with the same code (JIT and heap layout), so the "limits on" and "Redis" rows, each its own
process, resolve only large differences; the in-process breakdown resolves smaller ones. With ${m.cpus} CPUs the load generator pinned to one CPU may not
saturate the bare server (see its CPU column), which makes the ratios look better than they are on
bigger machines.

The ratios are not linear in the application's own cost. Most of a request's CPU on this VM is
the kernel sending the response over the loopback (\`writev\`), and that costs more when the load
generator is idle and must be woken on the other CPU, which is the case whenever the server is
the slower side. The bare route pays about 10 µs per response for it, a server at half its speed
about 18 µs. So a cached query that does about 7 µs of its own work still costs about twice the
bare route, and a small change to the application moves the ratio a lot; figures near a target
(the cached ratio has been measured at 51% to 54%) can fall either side of it from run to run.
`;
}
