/**
 * Redis outage (docs/security.md §7): the cached `/api/v1/query` of a Groundwork
 * instance with its answer cache and limiter in Redis (limits set high, so every
 * request runs the limiter and none is refused), measured in three phases against
 * a throwaway redis-server on a loopback port (test/support/redis-process.ts):
 *
 * 1. up: Redis running (after a discarded warm-up);
 * 2. down: from the moment redis-server is SIGKILLed, the breaker's detection
 *    included (requests in flight at the kill count here), until the run ends;
 *    the worst latency of the requests in flight during the first second after
 *    the kill is reported on its own;
 * 3. recovered: after `restart()` (an empty Redis on the same port), once
 *    `/readyz` reports Redis "ok" again, i.e. the breaker has closed.
 *
 * The same autocannon client, connection count and duration in every phase. Every
 * run is bounded in time; the caller's exit handlers kill redis-server and the
 * Groundwork child on every path (killRedisServers, killAll).
 */
import { Redis } from 'ioredis';
import { redisServerAvailable, type RedisProcess, startRedis } from '../test/support/redis-process.js';
import type { ServerChild } from './children.js';
import { FAQ } from './faq.js';
import { TimedClient } from './http-client.js';
import { cannon, type LoadOptions } from './http-load.js';
import { ask, prepareKnowledgeBase } from './setup.js';
import { histogram, type LatencySummary, recordMs, round, summarise } from './stats.js';

export interface OutagePhase {
  label: string;
  /** Seconds of the window the figures cover. */
  durationSec: number;
  /** Responses in the window. */
  responses: number;
  rps: number;
  /** Latency of the 2xx responses, ms. */
  latency: LatencySummary;
  non2xx: number;
  /** Socket errors and timeouts of the autocannon run holding the window. */
  errors: number;
  timeouts: number;
  /** Server CPU (user + system) per response over the window, µs. */
  serverCpuUsPerRequest: number;
}

export type RedisOutageResult =
  | { status: 'skipped'; reason: string }
  | {
      status: 'measured';
      connections: number;
      up: OutagePhase;
      down: OutagePhase;
      recovered: OutagePhase;
      /** Down p99 / up p99. */
      p99Ratio: number;
      /** Down p99 − up p99, ms. */
      p99DeltaMs: number;
      /** Responses in flight during the first second after the kill: how many, and the slowest (ms). */
      firstSecond: { responses: number; maxMs: number; non2xx: number };
      /** ms from the kill to the first `/readyz` reporting Redis degraded (polled every 50 ms); null if it never did. */
      degradedAfterMs: number | null;
      /** ms from `restart()` returning (Redis answers PING) to `/readyz` reporting Redis ok; null if not within the bound. */
      breakerClosedAfterMs: number | null;
      /** Keys in Redis after the up and the recovered phases: the cache and the limiter really use it. */
      redisKeys: { afterUp: number; afterRecovered: number };
    };

export interface RedisOutageOptions {
  /** Starts a Groundwork child with REDIS_URL set to `redisUrl` (the runner's other settings: high limits, cache on). */
  spawn(redisUrl: string): Promise<ServerChild>;
  question: string;
  connections: number;
  warmupSec: number;
  /** Length of each measured phase (the down phase starts at the kill). */
  phaseSec: number;
  /** Load before the kill in the down run, not counted (so the kill hits a running load); whole seconds, as autocannon rounds its duration. */
  leadInMs: number;
  /** Longest wait for the breaker to close after the restart. */
  recoveryTimeoutMs: number;
  log(message: string): void;
}

interface Sample {
  /** performance.now() at the response. */
  end: number;
  ms: number;
  status: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function phase(label: string, samples: Sample[], from: number, to: number, run: { errors: number; timeouts: number }, cpuUs: number): OutagePhase {
  const h = histogram();
  let responses = 0;
  let non2xx = 0;
  for (const s of samples) {
    if (s.end < from || s.end > to) continue;
    responses++;
    if (s.status >= 200 && s.status < 300) recordMs(h, s.ms);
    else non2xx++;
  }
  const durationSec = (to - from) / 1000;
  return {
    label,
    durationSec: round(durationSec, 2),
    responses,
    rps: durationSec > 0 ? round(responses / durationSec, 0) : 0,
    latency: summarise(h),
    non2xx,
    errors: run.errors,
    timeouts: run.timeouts,
    serverCpuUsPerRequest: responses > 0 ? round(cpuUs / responses, 1) : 0,
  };
}

async function redisKeys(url: string): Promise<number> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return await client.dbsize();
  } finally {
    client.disconnect();
  }
}

/** The `/readyz` verdict on Redis ("ok", "degraded"), or the failure. */
async function readyRedis(client: TimedClient): Promise<string> {
  try {
    const response = await client.request('GET', '/readyz');
    return (JSON.parse(response.text) as { checks?: Record<string, string> }).checks?.redis ?? `HTTP ${response.status}, no redis check`;
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
}

/** Polls `/readyz` every `everyMs` until Redis reads `want` or `deadline` (performance.now()) passes; the time it did, or null. */
async function pollReady(client: TimedClient, want: string, deadline: number, everyMs: number): Promise<number | null> {
  while (performance.now() < deadline) {
    if ((await readyRedis(client)) === want) return performance.now();
    await sleep(everyMs);
  }
  return null;
}

export async function redisOutage(options: RedisOutageOptions): Promise<RedisOutageResult> {
  if (!redisServerAvailable.available) return { status: 'skipped', reason: 'redis-server is not on PATH' };
  const { log } = options;
  log('Redis outage: starting a throwaway redis-server and a Groundwork instance using it');
  let redis: RedisProcess | undefined;
  let server: ServerChild | undefined;
  let probe: TimedClient | undefined;
  try {
    redis = await startRedis();
    server = await options.spawn(redis.url);
    probe = new TimedClient(server.url);
    const kb = await prepareKnowledgeBase(server.url, FAQ);
    await ask(server.url, kb, options.question);
    const sample = await ask(server.url, kb, options.question);
    if (sample.status !== 200 || !sample.body.cached) throw new Error(`Redis outage: unexpected sample answer: ${JSON.stringify(sample).slice(0, 500)}`);
    const before = await readyRedis(probe);
    if (before !== 'ok') throw new Error(`Redis outage: /readyz reports Redis "${before}" before the outage`);

    const load: LoadOptions = {
      label: 'redis outage',
      server,
      path: '/api/v1/query',
      bodies: [{ ragId: kb.ragId, query: options.question }],
      headers: { 'x-api-key': kb.apiKey },
      connections: options.connections,
      durationSec: options.phaseSec,
      warmupSec: 0,
    };
    const measure = async (durationSec: number, during?: () => Promise<void>) => {
      const samples: Sample[] = [];
      const cpu0 = await server?.cpuMicros();
      const start = performance.now();
      const running = cannon(load, durationSec, (status, ms) => samples.push({ end: performance.now(), ms, status }));
      // Caught at once (a rejection left pending during the run would be an unhandled one), rethrown below.
      const side = during ? during().then(() => null, (err: unknown) => err ?? new Error('failed')) : Promise.resolve(null);
      const result = await running;
      const end = performance.now();
      const failed = await side;
      if (failed) throw failed;
      const cpuEnd = (await server?.cpuMicros()) ?? 0;
      return { samples, start, end, result, cpuEnd, cpuUs: cpuEnd - (cpu0 ?? 0) };
    };

    // 1. Redis up.
    log(`Redis outage, phase 1: Redis up (${options.warmupSec}+${options.phaseSec} s, ${options.connections} connections)`);
    if (options.warmupSec > 0) await cannon(load, options.warmupSec);
    const upRun = await measure(options.phaseSec);
    const up = phase('Redis up', upRun.samples, upRun.start, upRun.end, upRun.result, upRun.cpuUs);
    const keysAfterUp = await redisKeys(redis.url);

    // 2. SIGKILL during the load; the window starts at the kill.
    log(`Redis outage, phase 2: SIGKILL of redis-server ${options.leadInMs} ms into the load, then ${options.phaseSec} s`);
    let killAt = Number.NaN;
    let cpuAtKill: Promise<number> | undefined;
    let degradedAt: number | null = null;
    const downRun = await measure(options.leadInMs / 1000 + options.phaseSec, async () => {
      await sleep(options.leadInMs);
      killAt = performance.now();
      cpuAtKill = server?.cpuMicros();
      await redis?.kill();
      degradedAt = await pollReady(probe as TimedClient, 'degraded', killAt + options.phaseSec * 1000, 50);
    });
    if (Number.isNaN(killAt)) throw new Error('Redis outage: redis-server was not killed');
    // The server's CPU over the window: from the kill to the end of the run.
    const cpuFromKill = downRun.cpuEnd - ((await cpuAtKill) ?? downRun.cpuEnd);
    const down = phase('Redis down (from the kill)', downRun.samples, killAt, downRun.end, downRun.result, cpuFromKill);
    const stillDown = await readyRedis(probe);
    if (stillDown !== 'degraded') log(`warning: /readyz reports Redis "${stillDown}" at the end of the outage phase`);
    const first = { responses: 0, maxMs: 0, non2xx: 0 };
    for (const s of downRun.samples) {
      if (s.end < killAt || s.end - s.ms > killAt + 1000) continue;
      first.responses++;
      first.maxMs = Math.max(first.maxMs, s.ms);
      if (s.status < 200 || s.status >= 300) first.non2xx++;
    }

    // 3. Restart (empty), wait for the breaker to close, measure again.
    log('Redis outage, phase 3: restarting redis-server, waiting for the breaker to close');
    await redis.restart();
    const restartedAt = performance.now();
    const closedAt = await pollReady(probe, 'ok', restartedAt + options.recoveryTimeoutMs, 100);
    if (closedAt === null) log(`warning: /readyz did not report Redis ok within ${options.recoveryTimeoutMs} ms of the restart`);
    log(`Redis outage, phase 3: Redis back (${options.phaseSec} s)`);
    const recoveredRun = await measure(options.phaseSec);
    const recovered = phase('Redis back', recoveredRun.samples, recoveredRun.start, recoveredRun.end, recoveredRun.result, recoveredRun.cpuUs);
    const keysAfterRecovered = await redisKeys(redis.url);

    return {
      status: 'measured',
      connections: options.connections,
      up,
      down,
      recovered,
      p99Ratio: up.latency.p99 > 0 ? round(down.latency.p99 / up.latency.p99, 2) : Number.NaN,
      p99DeltaMs: round(down.latency.p99 - up.latency.p99, 3),
      firstSecond: { ...first, maxMs: round(first.maxMs, 3) },
      degradedAfterMs: degradedAt === null ? null : round(degradedAt - killAt, 1),
      breakerClosedAfterMs: closedAt === null ? null : round(closedAt - restartedAt, 1),
      redisKeys: { afterUp: keysAfterUp, afterRecovered: keysAfterRecovered },
    };
  } finally {
    probe?.close();
    await server?.stop();
    await redis?.stop();
  }
}
