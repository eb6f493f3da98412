/**
 * `npm run bench`: measures Groundwork against references started the same way (bare Fastify,
 * bare `node:http`, a bare SSE server), every comparison repeated and interleaved in one run
 * (see docs/performance.md, "Method"): query cost and throughput (cached, uncached with questions
 * never asked before, limits on, Redis), answer streams (first `token` and `done` at 50 and 200
 * concurrent streams), the scale table (one knowledge base of 25 … 100,000 records, 1,000 and
 * 10,000 knowledge bases; in-memory and, with DATABASE_URL, PostgreSQL retrievers),
 * ingest-to-searchable on the shop FAQ, a Redis outage, the in-process query breakdown,
 * extraction and the limiter. Writes bench/results/<timestamp>.json; a run of every scenario
 * also writes latest.json and rewrites docs/performance.md. Prints PASS/FAIL per target.
 *
 * Flags: see bench/options.ts (`--scale quick|full`, `--only`, `--reps`, `--records`, `--kbs`,
 * `--startup-timeout`). Environment: REDIS_URL (Redis limiter and a Redis-backed server),
 * DATABASE_URL (PostgreSQL retriever rows in the scale table, in schemas of their own),
 * BENCH_PIN=0 (no CPU pinning), BENCH_WAIT_QUIET=<seconds> (first wait for an idle machine).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchDir, ensureBuilt, killAll, pinSelf, removeTempDirs, repoRoot, type ServerChild, setStartupTimeoutBase, spawnServer, startScriptNodeFlags, tempDir } from './children.js';
import { killRedisServers } from '../test/support/redis-process.js';
import { queryBreakdown } from './breakdown.js';
import { benchExtraction, type ExtractionResult } from './extraction.js';
import { FAQ, QUESTIONS, SAMPLE_QUESTION } from './faq.js';
import { uniqueQuestions } from './generated.js';
import { load, type LoadOptions, type LoadResult } from './http-load.js';
import { type Arm, interleave, type LoadSummary, pairedRatio, type PairedRatio, type StreamSummary, summariseLoads, summariseStreams } from './interleave.js';
import { type BenchOptions, parseOptions, type Scenario, SCENARIOS } from './options.js';
import { scaleTable } from './scale.js';
import { storesScenario } from './stores.js';
import { httpIngest, inProcessIngest } from './ingest.js';
import { memoryLimiter, redisLimiter } from './limiter.js';
import { redisOutage } from './redis-outage.js';
import { type BenchResults, consoleReport, evaluateTargets, type Machine, markdown } from './report.js';
import { ask, prepareKnowledgeBase, type PreparedKb } from './setup.js';
import { round } from './stats.js';
import { streamScenario, type StreamScenarioResult, type StreamTarget } from './streams.js';

let options: BenchOptions;
try {
  options = parseOptions(process.argv.slice(2), process.env);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(2);
}
setStartupTimeoutBase(options.startupTimeoutSec * 1000);
const quick = options.scale === 'quick';
const runs = (s: Scenario) => options.only.includes(s);
const settings = {
  scale: options.scale,
  only: options.only,
  reps: options.reps,
  startupTimeoutSec: options.startupTimeoutSec,
  connections: 50,
  /** Warm-up before a server's first window, and before each later one. */
  warmupSec: quick ? 1 : 3,
  rewarmSec: 1,
  durationSec: quick ? 2 : 5,
  secondaryDurationSec: quick ? 2 : 4,
  // Streams: rounds of N concurrent streams per window; the first window of each arm warms up longer
  // (V8's compiler threads share the server's pinned CPU).
  streamPlan: [
    { concurrency: 50, rounds: quick ? 4 : 20, warmup: 3, warmupMs: quick ? 500 : 2000 },
    { concurrency: 200, rounds: quick ? 2 : 10, warmup: 2, warmupMs: quick ? 500 : 2000 },
  ],
  scaleRecords: options.records,
  scaleKnowledgeBases: options.knowledgeBases,
  scaleIngestIterations: quick ? 3 : 10,
  scaleQueryConnections: 4,
  scaleQuerySec: quick ? 2 : 5,
  // A restarted process takes thousands of queries to settle at 100,000 records (its answer-analysis
  // cache fills, the compiler settles): ~2.6 → 1.6 ms of CPU per query over the first 8,000 (session 25).
  scaleQueryWarmupSec: quick ? 1 : 8,
  scaleHeadOfLineBaselineSec: quick ? 1 : 3,
  ingestIterations: quick ? 10 : 50,
  inProcessIngestIterations: quick ? 50 : 300,
  extractionIterations: quick ? 1 : 3,
  breakdownCalls: quick ? 200 : 1000,
  breakdownBatches: quick ? 2 : 3,
  limiterMs: quick ? 300 : 1000,
  redisSequentialCalls: quick ? 300 : 2000,
  redisConcurrentMs: quick ? 500 : 2000,
  // Redis outage: the same client, connection count and length in each of its three phases
  // (fewer connections than the throughput runs: it is about latency); the kill comes this far into its run.
  outageConnections: 10,
  outagePhaseSec: quick ? 3 : 8,
  outageLeadInMs: 1000,
  outageRecoveryTimeoutMs: 20_000,
  questions: QUESTIONS.length,
  cachedQuestion: SAMPLE_QUESTION,
};

const redisUrl = process.env.REDIS_URL?.trim() || undefined;
const log = (message: string) => process.stderr.write(`[bench ${((performance.now() - t0) / 1000).toFixed(1)}s] ${message}\n`);
const t0 = performance.now();

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

function packageVersion(name: string): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** Share of all CPUs that was busy (not idle) over `ms`, from the kernel's counters: other work on the machine. */
async function busyShare(ms: number): Promise<number> {
  const sample = () => os.cpus().reduce((acc, c) => ({ idle: acc.idle + c.times.idle, total: acc.total + c.times.user + c.times.nice + c.times.sys + c.times.idle + c.times.irq }), { idle: 0, total: 0 });
  const a = sample();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const b = sample();
  const total = b.total - a.total;
  return total > 0 ? round(1 - (b.idle - a.idle) / total, 2) : 0;
}

function machine(pinning: Machine['pinning']): Machine {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    totalMemoryMb: Math.round(os.totalmem() / 1024 / 1024),
    loadAverage: os.loadavg().map((l) => round(l, 2)),
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    fastify: packageVersion('fastify'),
    autocannon: packageVersion('autocannon'),
    gitCommit: git(['rev-parse', 'HEAD']) || 'unknown',
    gitDirty: git(['status', '--porcelain', '--untracked-files=no']) !== '',
    pinning,
    serverNodeFlags: startScriptNodeFlags(),
  };
}

const children: ServerChild[] = [];
/** Every child, on every path (SIGKILL, synchronous): the servers and the outage scenario's redis-server. */
function killChildren(): void {
  killAll();
  killRedisServers();
}
let cleaning = false;
function abort(signal: string): void {
  if (cleaning) return;
  cleaning = true;
  log(`${signal}: killing the servers`);
  killChildren();
  process.exit(130);
}
process.once('SIGINT', () => abort('SIGINT'));
process.once('SIGTERM', () => abort('SIGTERM'));
process.once('exit', () => {
  killChildren();
  removeTempDirs();
});

async function main(): Promise<void> {
  const startedAt = new Date();
  const canPin = process.env.BENCH_PIN !== '0' && os.cpus().length >= 2;
  const pinned = canPin && pinSelf('0');
  const serverCpus = pinned ? String(os.cpus().length - 1) : undefined;
  const info = machine(pinned ? { runner: '0', servers: serverCpus as string } : null);
  // Groundwork's servers run the production build: made first, before anything is timed.
  ensureBuilt(log);
  const waitQuiet = Number(process.env.BENCH_WAIT_QUIET ?? 0);
  if (waitQuiet > 0) {
    log(`waiting up to ${waitQuiet} s for the machine to be idle`);
    const until = performance.now() + waitQuiet * 1000;
    let quietFor = 0;
    while (performance.now() < until && quietFor < 3) quietFor = (await busyShare(2000)) < 0.15 ? quietFor + 1 : 0;
    info.waitedSec = round((performance.now() - t0) / 1000, 1);
  }
  info.busyAtStart = await busyShare(1000);
  if (info.busyAtStart > 0.15) log(`warning: ${Math.round(info.busyAtStart * 100)}% of the CPUs were busy with other work before the run: expect noisy figures`);
  log(`${info.cpus} CPUs, Node ${info.node}, commit ${info.gitCommit.slice(0, 12)}${pinned ? `, runner on CPU 0, servers on CPU ${serverCpus}` : ', not pinned'}; scenarios: ${options.only.join(', ')} (${options.scale})`);

  const partial: Omit<BenchResults, 'targets'> = { startedAt: startedAt.toISOString(), durationSec: 0, machine: info, settings, scenarios: options.only };

  // --- servers -----------------------------------------------------------------------------
  const base = {
    LOG_LEVEL: 'warn',
    IP_RATE_PER_SECOND: '0',
    QUERY_RATE_PER_MINUTE: '0',
    QUERY_QUOTA_PER_DAY: '0',
    // The load comes from one address, with up to 200 streams open at once.
    IP_MAX_CONNECTIONS: '0',
    MAX_KNOWLEDGE_BASES: '4',
    QUERY_CACHE_TTL_SECONDS: '60',
  };
  const high = { IP_RATE_PER_SECOND: '100000000', QUERY_RATE_PER_MINUTE: '1000000000', QUERY_QUOTA_PER_DAY: '1000000000' };
  const gw = (name: string, env: Record<string, string>) =>
    spawnServer(name, { script: 'server-groundwork.mjs', cpus: serverCpus, env: { ...base, DATA_DIR: tempDir('gw-bench-'), ...env } }).then((c) => {
      children.push(c);
      return c;
    });
  const reference = (name: string, script: string, env: Record<string, string>) =>
    spawnServer(name, { script, cpus: serverCpus, env }).then((c) => {
      children.push(c);
      return c;
    });

  if (runs('http') || runs('streams') || runs('ingest')) {
    log('starting the Groundwork servers');
    const [cached, uncached, limited, redis] = await Promise.all([
      gw('groundwork cache on', {}),
      gw('groundwork cache off', { QUERY_CACHE_TTL_SECONDS: '0' }),
      runs('http') ? gw('groundwork limits on', high) : Promise.resolve(undefined),
      redisUrl && runs('http') ? gw('groundwork redis', { ...high, REDIS_URL: redisUrl }) : Promise.resolve(undefined),
    ]);
    log('setting up knowledge bases (sign-in, upload of the 25-entry FAQ, key)');
    const kbs = new Map<ServerChild, PreparedKb>();
    for (const server of [cached, uncached, limited, redis]) if (server) kbs.set(server, await prepareKnowledgeBase(server.url, FAQ));
    const kbOf = (server: ServerChild) => kbs.get(server) as PreparedKb;

    // A real cached answer and a real answer stream, for the references to send.
    await ask(cached.url, kbOf(cached), settings.cachedQuestion);
    const sample = await ask(cached.url, kbOf(cached), settings.cachedQuestion);
    if (sample.status !== 200 || !sample.body.cached || !sample.body.grounded) throw new Error(`unexpected sample answer: ${JSON.stringify(sample)}`);
    const referenceDir = tempDir('gw-bench-bare-');
    const bodyFile = path.join(referenceDir, 'answer.json');
    fs.writeFileSync(bodyFile, JSON.stringify(sample.body));
    const sseFile = path.join(referenceDir, 'stream.json');
    fs.writeFileSync(sseFile, JSON.stringify(await sampleStream(uncached.url, kbOf(uncached), settings.cachedQuestion)));

    // One source of never-asked questions for every uncached window and stream of the run.
    const fresh = uniqueQuestions();
    if (runs('http')) {
      const [bareFastify, bareHttp] = await Promise.all([
        reference('bare fastify', 'server-bare.ts', { BENCH_BARE_BODY_FILE: bodyFile }),
        reference('bare node:http', 'server-bare-http.ts', { BENCH_BARE_BODY_FILE: bodyFile }),
      ]);
      const keyOf = (kb: PreparedKb) => ({ 'x-api-key': kb.apiKey });
      const arm = (key: string, label: string, server: ServerChild, extra: Partial<LoadOptions>, durationSec = settings.durationSec): Arm<LoadResult> => ({
        key,
        label,
        run: (rep) =>
          load({
            label,
            server,
            path: '/api/v1/query',
            connections: settings.connections,
            warmupSec: rep === 0 ? settings.warmupSec : settings.rewarmSec,
            durationSec,
            bodies: [],
            ...extra,
          }),
      });
      const one = (kb: PreparedKb) => ({ bodies: [{ ragId: kb.ragId, query: settings.cachedQuestion }], headers: keyOf(kb) });
      const arms: Arm<LoadResult>[] = [
        arm('bareFastify', 'bare Fastify route', bareFastify, { bodies: [{ ragId: 'kb_bare', query: settings.cachedQuestion }] }),
        arm('bareHttp', 'bare node:http route', bareHttp, { bodies: [{ ragId: 'kb_bare', query: settings.cachedQuestion }] }),
        arm('cached', '/api/v1/query cached', cached, one(kbOf(cached))),
        arm('uncached', '/api/v1/query uncached (new questions)', uncached, {
          headers: keyOf(kbOf(uncached)),
          nextBody: () => ({ ragId: kbOf(uncached).ragId, query: fresh() }),
        }),
        ...(limited ? [arm('limitsOn', '/api/v1/query cached, limits on', limited, one(kbOf(limited)), settings.secondaryDurationSec)] : []),
        ...(redis ? [arm('redis', '/api/v1/query cached, Redis cache + limits', redis, one(kbOf(redis)), settings.secondaryDurationSec)] : []),
      ];
      log(`query load: ${arms.length} servers × ${options.reps} repetitions, interleaved`);
      const results = await interleave(arms, options.reps, log);
      const summaries: Record<string, LoadSummary> = {};
      for (const [key, list] of results) {
        summaries[key] = summariseLoads(list);
        const failures = summaries[key].failures;
        if (failures > 0) log(`warning: ${summaries[key].label} had ${failures} non-2xx, errors or timeouts`);
      }
      const ratios: Record<string, { toFastify: PairedRatio; toNodeHttp: PairedRatio }> = {};
      for (const key of results.keys()) {
        if (key.startsWith('bare')) continue;
        const list = results.get(key) as LoadResult[];
        ratios[key] = { toFastify: pairedRatio(list, results.get('bareFastify') as LoadResult[]), toNodeHttp: pairedRatio(list, results.get('bareHttp') as LoadResult[]) };
      }
      partial.http = { arms: summaries, ratios };
      await Promise.all([bareFastify.stop(), bareHttp.stop()]);
    }

    if (runs('streams')) {
      const bareSse = await reference('bare SSE', 'server-bare-sse.ts', { BENCH_BARE_SSE_FILE: sseFile });
      const target = (server: ServerChild, questions: StreamTarget['questions']): StreamTarget => ({
        url: server.url,
        ragId: kbs.get(server)?.ragId ?? 'kb_bare',
        apiKey: kbs.get(server)?.apiKey ?? 'none',
        questions,
        serverCpuMicros: () => server.cpuMicros(),
      });
      const targets: { key: string; label: string; target: StreamTarget }[] = [
        { key: 'bareSse', label: 'bare SSE (node:http)', target: target(bareSse, [settings.cachedQuestion]) },
        { key: 'uncached', label: 'cache off, new questions', target: target(uncached, fresh) },
        { key: 'cached', label: 'cache hit', target: target(cached, [settings.cachedQuestion]) },
      ];
      const summaries: StreamSummary[] = [];
      for (const step of settings.streamPlan) {
        const arms: Arm<StreamScenarioResult>[] = targets.map((t) => ({
          key: t.key,
          label: `streams, ${t.label}: ${step.concurrency} at once × ${step.rounds} rounds`,
          run: (rep) => streamScenario(t.target, step.concurrency, step.rounds, rep === 0 ? step.warmup : 1, rep === 0 ? step.warmupMs : 0),
        }));
        const results = await interleave(arms, options.reps, log);
        const ref = results.get('bareSse') as StreamScenarioResult[];
        for (const t of targets) summaries.push(summariseStreams(t.key, t.label, results.get(t.key) as StreamScenarioResult[], t.key === 'bareSse' ? undefined : ref));
      }
      partial.streams = summaries;
      await bareSse.stop();
    }

    if (runs('ingest')) {
      log('ingest-to-searchable over HTTP');
      partial.ingest = { http: await httpIngest(cached.url, kbOf(cached).client, settings.ingestIterations), inProcess: [] };
    }
    log('stopping the servers');
    await Promise.all(children.splice(0).map((c) => c.stop()));
  }

  // --- SQLite against PostgreSQL + Redis --------------------------------------------------------
  if (runs('stores')) {
    const stores = await storesScenario({
      databaseUrl: process.env.DATABASE_URL?.trim() || undefined,
      redisUrl,
      spawn: (name, env) => gw(name, { ...high, ...env }),
      reps: options.reps,
      connections: settings.connections,
      warmupSec: settings.warmupSec,
      rewarmSec: settings.rewarmSec,
      durationSec: settings.durationSec,
      question: settings.cachedQuestion,
      fresh: uniqueQuestions(),
      log,
    });
    if (stores.status === 'skipped') log(`stores skipped: ${stores.reason}`);
    partial.stores = stores;
    await Promise.all(children.splice(0).map((c) => c.stop()));
  }

  // --- Redis outage ----------------------------------------------------------------------------
  if (runs('outage')) {
    const outage = await redisOutage({
      spawn: (url) => gw('groundwork redis outage', { ...high, REDIS_URL: url }),
      question: settings.cachedQuestion,
      connections: settings.outageConnections,
      warmupSec: settings.warmupSec,
      phaseSec: settings.outagePhaseSec,
      leadInMs: settings.outageLeadInMs,
      recoveryTimeoutMs: settings.outageRecoveryTimeoutMs,
      log,
    });
    if (outage.status === 'skipped') log(`Redis outage skipped: ${outage.reason}`);
    else {
      for (const p of [outage.up, outage.down, outage.recovered]) {
        if (p.non2xx + p.errors + p.timeouts > 0) log(`warning: Redis outage, ${p.label}: ${p.non2xx} non-2xx, ${p.errors} errors, ${p.timeouts} timeouts`);
      }
    }
    partial.redisOutage = outage;
    await Promise.all(children.splice(0).map((c) => c.stop()));
  }

  // --- scale table -----------------------------------------------------------------------------
  if (runs('scale')) {
    const databaseUrl = process.env.DATABASE_URL?.trim() || undefined;
    if (!databaseUrl) log('scale: DATABASE_URL is not set, so only the in-memory retriever is measured');
    partial.scale = await scaleTable({
      records: settings.scaleRecords,
      knowledgeBases: settings.scaleKnowledgeBases,
      retrievers: databaseUrl ? ['memory', 'postgres'] : ['memory'],
      databaseUrl,
      ingestIterations: settings.scaleIngestIterations,
      queryConnections: settings.scaleQueryConnections,
      querySeconds: settings.scaleQuerySec,
      queryWarmupSeconds: settings.scaleQueryWarmupSec,
      headOfLineAt: Math.max(...settings.scaleRecords),
      headOfLineBaselineSec: settings.scaleHeadOfLineBaselineSec,
      serverCpus,
      env: { ...base, ...high },
      log,
    });
  }
  removeTempDirs();

  // The in-process parts run with the servers stopped, so nothing else competes for the CPUs.
  if (runs('ingest') && partial.ingest) {
    log('ingest-to-searchable in process');
    partial.ingest.inProcess = [await inProcessIngest(settings.inProcessIngestIterations, 'disk'), await inProcessIngest(settings.inProcessIngestIterations, 'memory')];
  }
  if (runs('breakdown')) {
    log('query path breakdown, in process');
    partial.breakdown = await queryBreakdown(settings.breakdownCalls, settings.breakdownBatches);
  }
  if (runs('extraction')) {
    const extraction: ExtractionResult[] = [];
    for (const format of ['txt', 'md', 'json', 'jsonl'] as const) {
      log(`extraction of 10 MB, ${format}`);
      extraction.push(benchExtraction(format, settings.extractionIterations, performance.now() + 15_000));
    }
    partial.extraction = extraction;
  }
  if (runs('limiter')) {
    log('limiter, in process');
    const stepCpu = (name: string) => partial.breakdown?.steps.find((s) => s.step === name)?.cpuUs ?? Number.NaN;
    const http = partial.http?.arms;
    partial.limiter = {
      memory: await memoryLimiter(settings.limiterMs),
      redis: redisUrl ? await redisLimiter(redisUrl, settings.redisSequentialCalls, settings.redisConcurrentMs) : null,
      httpOverheadUsPerRequest: http?.limitsOn && http.cached ? round(http.limitsOn.cpuUsPerRequest.median - http.cached.cpuUsPerRequest.median, 1) : Number.NaN,
      injectOverheadUsPerRequest: round(stepCpu('inject: /api/v1/query cached, whole app, limits on (memory)') - stepCpu('inject: /api/v1/query cached, whole app'), 1),
      httpOverheadP50Ms: http?.limitsOn && http.cached ? round(http.limitsOn.p50.median - http.cached.p50.median, 3) : Number.NaN,
    };
  }

  partial.durationSec = round((performance.now() - t0) / 1000, 1);
  info.loadAverageAtEnd = os.loadavg().map((l) => round(l, 2));
  const results: BenchResults = { ...partial, targets: evaluateTargets(partial) };

  // --- outputs ---------------------------------------------------------------------------------
  const resultsDir = path.join(benchDir, 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const stamp = results.startedAt.replace(/[:.]/g, '-');
  const file = path.join(resultsDir, `${stamp}.json`);
  const json = `${JSON.stringify(results, null, 2)}\n`;
  const complete = options.only.length === SCENARIOS.length;
  // Write then rename, so an interrupted run never leaves half a file (bench/results/*.tmp is ignored).
  for (const target of complete ? [file, path.join(resultsDir, 'latest.json')] : [file]) {
    fs.writeFileSync(`${target}.tmp`, json);
    fs.renameSync(`${target}.tmp`, target);
  }
  if (complete) fs.writeFileSync(path.join(repoRoot, 'docs', 'performance.md'), markdown(results, path.relative(repoRoot, file)));
  const wrote = complete
    ? `Wrote ${path.relative(repoRoot, file)}, bench/results/latest.json and docs/performance.md`
    : `Wrote ${path.relative(repoRoot, file)} (a partial run: latest.json and docs/performance.md left as they were)`;
  process.stdout.write(`\n${consoleReport(results)}\n\n${wrote} (${results.durationSec} s).\n`);
}

/** The frames of one real answer stream (`meta` first), for the bare SSE server to replay. */
async function sampleStream(baseUrl: string, kb: PreparedKb, question: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/api/v1/query/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': kb.apiKey, accept: 'text/event-stream' },
    body: JSON.stringify({ ragId: kb.ragId, query: question }),
  });
  const text = await response.text();
  const frames = text.split(/(?<=\n\n)/).filter((f) => /^(id|event|data):/m.test(f));
  if (response.status !== 200 || !/^event: meta/m.test(frames[0] ?? '') || !frames.some((f) => /^event: done/m.test(f))) {
    throw new Error(`unexpected sample stream: HTTP ${response.status} ${text.slice(0, 300)}`);
  }
  return frames;
}

main().then(
  () => {
    killChildren();
    process.exit(0);
  },
  (error: unknown) => {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    killChildren();
    process.exit(1);
  },
);
