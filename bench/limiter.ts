/**
 * Limiter overhead per request, in process: one `consume` with the rules a
 * query checks (the IP rule, the per-minute and per-day rules of its
 * knowledge base).
 *
 * - MemoryRateLimiter: calls per second and ns per call, on the allowed path
 *   (the injected clock advances so the default limits are never reached and
 *   the logs stay at their real size) and on the refused path.
 * - RedisRateLimiter: round-trip latency of sequential calls (p50/p99) and
 *   throughput with 50 calls in flight, against REDIS_URL, under a key prefix
 *   of its own.
 */
import { randomUUID } from 'node:crypto';
import { MemoryRateLimiter } from '../src/adapters/limits/memory.js';
import type { LimitRule, RateLimiter } from '../src/ports/rate-limiter.js';
import { RedisRateLimiter } from '../src/adapters/limits/redis.js';
import { ipRule, queryRules } from '../src/limits/rules.js';
import { histogram, type LatencySummary, recordMs, round, summarise } from './stats.js';

/** The product's defaults: 30/s per IP, 10/min and 100/day per knowledge base. */
function rulesFor(i: number, kbs: number): LimitRule[] {
  const ragId = `kb_bench${i % kbs}`;
  return [ipRule({ ipRatePerSecond: 30 }, `ip:10.0.${(i >> 8) & 255}.${i & 255}`), ...queryRules({ queryRatePerMinute: 10, queryQuotaPerDay: 100 }, ragId)];
}

export interface MemoryLimiterResult {
  path: 'allowed' | 'refused';
  calls: number;
  callsPerSecond: number;
  nsPerCall: number;
  allowedShare: number;
}

async function memoryRun(path: 'allowed' | 'refused', durationMs: number): Promise<MemoryLimiterResult> {
  const limiter = new MemoryRateLimiter();
  // Allowed: 1000 knowledge bases and the clock moves 10 ms a call, so each one sees a call every 10 s
  // (6 a minute, under 10); the clock jumps to the next UTC day every 100,000 calls (100 per knowledge
  // base, the day quota). Refused: one knowledge base and a frozen clock, so after 10 calls every
  // call is refused.
  const kbs = path === 'allowed' ? 1000 : 1;
  const start = Date.UTC(2030, 0, 1);
  let now = start;
  let calls = 0;
  let allowed = 0;
  const t0 = performance.now();
  const until = t0 + durationMs;
  while (performance.now() < until) {
    for (let j = 0; j < 1000; j++) {
      if (path === 'allowed') now += 10;
      if (path === 'allowed' && calls % 100_000 === 0) now = start + Math.floor(calls / 100_000) * 86_400_000;
      const decision = await limiter.consume(rulesFor(calls, kbs), now);
      if (decision.allowed) allowed++;
      calls++;
    }
  }
  const elapsed = performance.now() - t0;
  await limiter.close();
  return {
    path,
    calls,
    callsPerSecond: Math.round(calls / (elapsed / 1000)),
    nsPerCall: Math.round((elapsed * 1e6) / calls),
    allowedShare: round(allowed / calls, 3),
  };
}

export async function memoryLimiter(durationMs: number): Promise<MemoryLimiterResult[]> {
  await memoryRun('allowed', 200); // warm-up
  return [await memoryRun('allowed', durationMs), await memoryRun('refused', durationMs)];
}

export interface RedisLimiterResult {
  url: string;
  sequential: LatencySummary;
  concurrent: { inFlight: number; calls: number; callsPerSecond: number; latency: LatencySummary };
}

export async function redisLimiter(url: string, sequentialCalls: number, concurrentMs: number): Promise<RedisLimiterResult> {
  const prefix = `gw:bench:${randomUUID()}:`;
  const limiter: RateLimiter = new RedisRateLimiter(url, { keyPrefix: prefix });
  try {
    let now = Date.now();
    const tick = () => {
      now += 10;
      return now;
    };
    for (let i = 0; i < 200; i++) await limiter.consume(rulesFor(i, 1000), tick()); // warm-up, loads the script
    const seq = histogram();
    for (let i = 0; i < sequentialCalls; i++) {
      const t0 = performance.now();
      await limiter.consume(rulesFor(i, 1000), tick());
      recordMs(seq, performance.now() - t0);
    }
    const inFlight = 50;
    const conc = histogram();
    let calls = 0;
    const t0 = performance.now();
    const until = t0 + concurrentMs;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (performance.now() < until) {
          const s = performance.now();
          await limiter.consume(rulesFor(calls++, 1000), tick());
          recordMs(conc, performance.now() - s);
        }
      }),
    );
    const elapsed = performance.now() - t0;
    return {
      url: url.replace(/\/\/[^@/]*@/, '//***@'),
      sequential: summarise(seq),
      concurrent: { inFlight, calls, callsPerSecond: Math.round(calls / (elapsed / 1000)), latency: summarise(conc) },
    };
  } finally {
    await limiter.close();
  }
}
