/**
 * `npm run bench`: measures, in one run, Groundwork against a bare Fastify
 * route started the same way (see docs/performance.md for the method):
 * query throughput and latency (cached, uncached, limits on, Redis), answer
 * stream first-event and first-token latency at 1, 50 and 200 concurrent
 * streams, ingest-to-searchable latency, a Redis outage (query latency with a
 * throwaway redis-server up, killed and restarted; skipped without
 * redis-server on PATH), extraction of 10 MB uploads and the limiter's
 * overhead. Writes bench/results/<timestamp>.json and latest.json,
 * prints a table and rewrites docs/performance.md.
 *
 * Environment: REDIS_URL (adds the Redis limiter and a Redis-backed server),
 * BENCH_QUICK=1 (short runs), BENCH_PIN=0 (no CPU pinning),
 * BENCH_WAIT_QUIET=<seconds> (first wait up to that long for the machine to be idle).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchDir, killAll, pinSelf, removeTempDirs, repoRoot, type ServerChild, spawnServer, tempDir } from './children.js';
import { killRedisServers } from '../test/support/redis-process.js';
import { queryBreakdown } from './breakdown.js';
import { benchExtraction, type ExtractionResult } from './extraction.js';
import { FAQ, QUESTIONS, SAMPLE_QUESTION } from './faq.js';
import { load } from './http-load.js';
import { httpIngest, inProcessIngest } from './ingest.js';
import { memoryLimiter, redisLimiter } from './limiter.js';
import { redisOutage } from './redis-outage.js';
import { type BenchResults, consoleReport, evaluateTargets, type Machine, markdown } from './report.js';
import { ask, prepareKnowledgeBase, type PreparedKb } from './setup.js';
import { round } from './stats.js';
import { streamScenario, type StreamScenarioResult, type StreamTarget } from './streams.js';

const quick = process.env.BENCH_QUICK === '1';
const settings = {
  quick,
  connections: 50,
  warmupSec: quick ? 1 : 3,
  durationSec: quick ? 3 : 10,
  secondaryDurationSec: quick ? 2 : 6,
  // Warm-up: at least these rounds and, like the throughput runs' warm-up, at least this long,
  // so the stream path is measured compiled (V8's compiler threads share the server's pinned CPU).
  streamPlan: [
    { concurrency: 1, rounds: quick ? 20 : 100, warmup: 10, warmupMs: quick ? 300 : 1000 },
    { concurrency: 50, rounds: quick ? 5 : 20, warmup: 3, warmupMs: quick ? 500 : 2000 },
    { concurrency: 200, rounds: quick ? 3 : 10, warmup: 2, warmupMs: quick ? 500 : 2000 },
  ],
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
  log(`${info.cpus} CPUs, Node ${info.node}, commit ${info.gitCommit.slice(0, 12)}${pinned ? `, runner on CPU 0, servers on CPU ${serverCpus}` : ', not pinned'}`);

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
    spawnServer(name, { script: 'server-groundwork.ts', cpus: serverCpus, env: { ...base, DATA_DIR: tempDir('gw-bench-'), ...env } }).then((c) => {
      children.push(c);
      return c;
    });
  log('starting the Groundwork servers');
  const [cached, uncached, limited, redis] = await Promise.all([
    gw('groundwork cache on', {}),
    gw('groundwork cache off', { QUERY_CACHE_TTL_SECONDS: '0' }),
    gw('groundwork limits on', high),
    redisUrl ? gw('groundwork redis', { ...high, REDIS_URL: redisUrl }) : Promise.resolve(undefined),
  ]);

  log('setting up knowledge bases (sign-in, upload of the 25-entry FAQ, key)');
  const kbs = new Map<ServerChild, PreparedKb>();
  for (const server of [cached, uncached, limited, redis]) if (server) kbs.set(server, await prepareKnowledgeBase(server.url, FAQ));
  const kbOf = (server: ServerChild) => kbs.get(server) as PreparedKb;

  // A real cached answer, for the bare route to return.
  await ask(cached.url, kbOf(cached), settings.cachedQuestion);
  const sample = await ask(cached.url, kbOf(cached), settings.cachedQuestion);
  if (sample.status !== 200 || !sample.body.cached || !sample.body.grounded) throw new Error(`unexpected sample answer: ${JSON.stringify(sample)}`);
  const bodyFile = path.join(tempDir('gw-bench-bare-'), 'answer.json');
  fs.writeFileSync(bodyFile, JSON.stringify(sample.body));
  const bare = await spawnServer('bare fastify', { script: 'server-bare.ts', cpus: serverCpus, env: { BENCH_BARE_BODY_FILE: bodyFile } });
  children.push(bare);

  // --- query throughput ----------------------------------------------------------------------
  const one = (kb: PreparedKb) => [{ ragId: kb.ragId, query: settings.cachedQuestion }];
  const keyOf = (kb: PreparedKb) => ({ 'x-api-key': kb.apiKey });
  const common = { path: '/api/v1/query', connections: settings.connections, warmupSec: settings.warmupSec };
  log(`load: bare route (${settings.warmupSec}+${settings.durationSec} s)`);
  const bareLoad = await load({ ...common, label: 'bare Fastify route', server: bare, bodies: [{ ragId: 'kb_bare', query: settings.cachedQuestion }], durationSec: settings.durationSec });
  log('load: /api/v1/query, cached');
  const cachedLoad = await load({ ...common, label: '/api/v1/query cached', server: cached, bodies: one(kbOf(cached)), headers: keyOf(kbOf(cached)), durationSec: settings.durationSec });
  log('load: /api/v1/query, uncached');
  const uncachedLoad = await load({
    ...common,
    label: '/api/v1/query uncached',
    server: uncached,
    bodies: QUESTIONS.map((query) => ({ ragId: kbOf(uncached).ragId, query })),
    headers: keyOf(kbOf(uncached)),
    durationSec: settings.durationSec,
  });
  log('load: /api/v1/query, cached, limits on');
  const limitedLoad = await load({
    ...common,
    label: '/api/v1/query cached, limits on',
    server: limited,
    bodies: one(kbOf(limited)),
    headers: keyOf(kbOf(limited)),
    durationSec: settings.secondaryDurationSec,
  });
  let redisLoad = null;
  if (redis) {
    log('load: /api/v1/query, cached, Redis cache + limiter');
    redisLoad = await load({
      ...common,
      label: '/api/v1/query cached, Redis cache + limits',
      server: redis,
      bodies: one(kbOf(redis)),
      headers: keyOf(kbOf(redis)),
      durationSec: settings.secondaryDurationSec,
    });
  }
  for (const l of [bareLoad, cachedLoad, uncachedLoad, limitedLoad, redisLoad]) {
    if (l && l.non2xx + l.errors + l.timeouts > 0) log(`warning: ${l.label} had ${l.non2xx} non-2xx, ${l.errors} errors, ${l.timeouts} timeouts`);
  }

  // --- streams ---------------------------------------------------------------------------------
  const streams = async (server: ServerChild, questions: readonly string[], label: string): Promise<StreamScenarioResult[]> => {
    const kb = kbOf(server);
    const target: StreamTarget = { url: server.url, ragId: kb.ragId, apiKey: kb.apiKey, questions, serverCpuMicros: () => server.cpuMicros() };
    const out: StreamScenarioResult[] = [];
    for (const step of settings.streamPlan) {
      log(`streams, cache ${label}: ${step.concurrency} at once × ${step.rounds} rounds`);
      out.push(await streamScenario(target, step.concurrency, step.rounds, step.warmup, step.warmupMs));
    }
    return out;
  };
  const cacheOff = await streams(uncached, QUESTIONS, 'off');
  const cacheHit = await streams(cached, [settings.cachedQuestion], 'hit');

  // --- ingest ----------------------------------------------------------------------------------
  log('ingest-to-searchable over HTTP');
  const ingestHttp = await httpIngest(cached.url, kbOf(cached).client, settings.ingestIterations);

  // --- Redis outage ----------------------------------------------------------------------------
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

  // The in-process parts run with the servers stopped, so nothing else competes for the CPUs.
  log('stopping the servers');
  await Promise.all(children.map((c) => c.stop()));
  removeTempDirs();

  log('ingest-to-searchable in process');
  const ingestInProcess = [await inProcessIngest(settings.inProcessIngestIterations, 'disk'), await inProcessIngest(settings.inProcessIngestIterations, 'memory')];

  log('query path breakdown, in process');
  const breakdown = await queryBreakdown(settings.breakdownCalls, settings.breakdownBatches);

  // --- extraction ------------------------------------------------------------------------------
  const extraction: ExtractionResult[] = [];
  for (const format of ['txt', 'md', 'json', 'jsonl'] as const) {
    log(`extraction of 10 MB, ${format}`);
    extraction.push(benchExtraction(format, settings.extractionIterations, performance.now() + 15_000));
  }

  // --- limiter ---------------------------------------------------------------------------------
  log('limiter, in process');
  const memory = await memoryLimiter(settings.limiterMs);
  const redisResult = redisUrl ? await redisLimiter(redisUrl, settings.redisSequentialCalls, settings.redisConcurrentMs) : null;

  const stepCpu = (name: string) => breakdown.steps.find((s) => s.step === name)?.cpuUs ?? Number.NaN;
  const partial: Omit<BenchResults, 'targets'> = {
    startedAt: startedAt.toISOString(),
    durationSec: round((performance.now() - t0) / 1000, 1),
    machine: info,
    settings,
    http: {
      bare: bareLoad,
      cached: cachedLoad,
      uncached: uncachedLoad,
      limitsOn: limitedLoad,
      redis: redisLoad,
      ratios: {
        cachedToBare: round(cachedLoad.rps / bareLoad.rps, 3),
        uncachedToBare: round(uncachedLoad.rps / bareLoad.rps, 3),
        cachedCpuToBare: round(bareLoad.serverCpuUsPerRequest / cachedLoad.serverCpuUsPerRequest, 3),
        uncachedCpuToBare: round(bareLoad.serverCpuUsPerRequest / uncachedLoad.serverCpuUsPerRequest, 3),
      },
    },
    streams: { cacheOff, cacheHit },
    redisOutage: outage,
    breakdown,
    ingest: { http: ingestHttp, inProcess: ingestInProcess },
    extraction,
    limiter: {
      memory,
      redis: redisResult,
      httpOverheadUsPerRequest: round(limitedLoad.serverCpuUsPerRequest - cachedLoad.serverCpuUsPerRequest, 1),
      injectOverheadUsPerRequest: round(stepCpu('inject: /api/v1/query cached, whole app, limits on (memory)') - stepCpu('inject: /api/v1/query cached, whole app'), 1),
      httpOverheadP50Ms: round(limitedLoad.latency.p50 - cachedLoad.latency.p50, 3),
    },
  };
  info.loadAverageAtEnd = os.loadavg().map((l) => round(l, 2));
  const results: BenchResults = { ...partial, targets: evaluateTargets(partial) };

  // --- outputs ---------------------------------------------------------------------------------
  const resultsDir = path.join(benchDir, 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const stamp = results.startedAt.replace(/[:.]/g, '-');
  const file = path.join(resultsDir, `${stamp}.json`);
  const json = `${JSON.stringify(results, null, 2)}\n`;
  // Write then rename, so an interrupted run never leaves half a file (bench/results/*.tmp is ignored).
  for (const target of [file, path.join(resultsDir, 'latest.json')]) {
    fs.writeFileSync(`${target}.tmp`, json);
    fs.renameSync(`${target}.tmp`, target);
  }
  fs.writeFileSync(path.join(repoRoot, 'docs', 'performance.md'), markdown(results, path.relative(repoRoot, file)));
  process.stdout.write(`\n${consoleReport(results)}\n\nWrote ${path.relative(repoRoot, file)}, bench/results/latest.json and docs/performance.md (${results.durationSec} s).\n`);
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
