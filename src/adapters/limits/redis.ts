/**
 * Rate limiter shared by every instance through Redis: one Lua script per
 * decision, so checking and taking across all rules is a single atomic step
 * (Redis runs a script without interleaving other commands). Redis 7.0 has no
 * native GCRA and the product asks for a sliding window, so the script keeps a
 * sliding log in a sorted set (research guide B2) and a day counter per UTC date.
 *
 * The clock is the caller's (`now` is an argument, never Redis TIME): tests
 * can inject it, and every instance judges with the same arithmetic as the
 * memory limiter. Instances therefore need synchronised clocks (NTP); a skew of
 * s ms shifts each window edge by up to s ms.
 *
 * Keys (`gw:rl:` by default): `<prefix>minute:<ragId>`, `<prefix>ip:<addr>`
 * (sorted sets, member `<now>-<uniqueToken()>` so two requests in the same ms are two
 * entries), `<prefix>day:<ragId>:<YYYY-MM-DD>` (counter). Each write sets a
 * PEXPIRE, so idle keys vanish: a window after the last unit, or the end of
 * the UTC day plus a margin. One call's keys live on one node: use a single
 * Redis (or Sentinel), not Cluster.
 *
 * ioredis `defineCommand` sends EVALSHA and falls back to EVAL on NOSCRIPT
 * (after a restart or SCRIPT FLUSH). Redis errors propagate: the caller decides
 * whether a limiter outage fails open or closed.
 */
import { randomUUID } from 'node:crypto';
import type { RedisOptions } from 'ioredis';
import { uniqueToken } from '../../ids.js';
import { closeRedis, openRedis, type RedisConnection, type RedisSource } from '../redis-connection.js';
import { DAY_KEY_MARGIN_MS, decide, enforcedRules, nextUtcMidnight, type Observation, utcDayKey } from './arithmetic.js';
import type { LimitDecision, LimitRule, RateLimiter } from '../../ports/rate-limiter.js';

/*
 * The decision as a Lua function, shared with the admission script (adapters/cache/redis-admission.ts),
 * which runs it in the same round trip as other reads. Rule i's key is KEYS[k0 + i]; its arguments
 * are in the table A (ARGV here, the admission's own arguments there): A[a0] is now, A[a0 + 1] a
 * unique member, then four per rule: kind ('s' sliding | 'd' day), limit, cutoff
 * (sliding: scores <= cutoff have left the window), ttl in ms for the PEXPIRE.
 * Returns {allowed, count_1, pivot_1, count_2, pivot_2, …} where count is the
 * units held after the decision and pivot (sliding) the score at index
 * max(0, count - limit), '' when the log is empty. Two passes: look at every
 * rule, then take from every rule only if all had room.
 */
export const LIMITS_LUA = `
local function limits(k0, A, a0, n)
  local now, member = A[a0], A[a0 + 1]
  local counts, allowed = {}, 1
  for i = 1, n do
    local key, b = KEYS[k0 + i], a0 + 1 + (i - 1) * 4
    local count
    if A[b + 1] == 's' then
      redis.call('ZREMRANGEBYSCORE', key, '-inf', A[b + 3])
      count = redis.call('ZCARD', key)
    else
      count = tonumber(redis.call('GET', key) or '0')
    end
    counts[i] = count
    if count >= tonumber(A[b + 2]) then allowed = 0 end
  end
  local out = {allowed}
  for i = 1, n do
    local key, b = KEYS[k0 + i], a0 + 1 + (i - 1) * 4
    local sliding, limit, ttl = A[b + 1] == 's', tonumber(A[b + 2]), A[b + 4]
    local count = counts[i]
    if allowed == 1 then
      if sliding then
        redis.call('ZADD', key, now, member)
        count = count + 1
        redis.call('PEXPIRE', key, ttl)
      else
        count = redis.call('INCR', key)
        -- A day key expires at a fixed time (its day's end plus a margin): set once, when created.
        if count == 1 then redis.call('PEXPIRE', key, ttl) end
      end
    end
    local pivot = ''
    if sliding and count > 0 then
      local at = math.max(0, count - limit)
      pivot = redis.call('ZRANGE', key, at, at, 'WITHSCORES')[2] or ''
    end
    out[#out + 1] = count
    out[#out + 1] = pivot
  end
  return out
end
`;

/* KEYS: one per rule; ARGV: now, member, four per rule (see LIMITS_LUA). */
const SCRIPT = `${LIMITS_LUA}
return limits(0, ARGV, 1, #KEYS)
`;

/** The keys and arguments of a decision over `active` (already `enforcedRules`), in LIMITS_LUA's layout. */
export function limitArguments(prefix: string, active: readonly LimitRule[], now: number): { keys: string[]; args: string[] } {
  const keys: string[] = [];
  const args: string[] = [String(now), `${now}-${uniqueToken()}`];
  for (const rule of active) {
    if (rule.kind === 'utc-day') {
      keys.push(`${prefix}${rule.name}:${rule.key}:${utcDayKey(now)}`);
      args.push('d', String(rule.limit), '0', String(nextUtcMidnight(now) - now + DAY_KEY_MARGIN_MS));
    } else {
      keys.push(`${prefix}${rule.name}:${rule.key}`);
      // The newest entry (now) leaves the window at now + windowMs: the key's TTL.
      args.push('s', String(rule.limit), String(now - rule.windowMs), String(rule.windowMs));
    }
  }
  return { keys, args };
}

/** The decision from LIMITS_LUA's reply, which starts at `reply[offset]`. */
export function limitDecision(active: readonly LimitRule[], reply: readonly unknown[], offset: number, now: number): LimitDecision {
  const seen: Observation[] = active.map((_, i) => {
    const pivot = reply[offset + 2 + 2 * i];
    return { count: Number(reply[offset + 1 + 2 * i]), pivot: pivot === '' || pivot === undefined ? undefined : Number(pivot) };
  });
  return decide(active, seen, reply[offset] === 1, now);
}

/** Default key prefix of the limiter's partitions. */
export const LIMIT_KEY_PREFIX = 'gw:rl:';

const COMMAND = 'groundworkRateLimit';

/*
 * Raise one partition to at least what another limiter held ("take the max"),
 * after an outage. KEYS[1]; ARGV[1] kind ('s' | 'd'); ARGV[2] ttl (ms);
 * sliding: ARGV[3] cutoff, ARGV[4] member prefix, ARGV[5..] ascending unit
 * times — the newest ones Redis lacks are added; day: ARGV[3] the count.
 */
const RAISE_SCRIPT = `
if ARGV[1] == 's' then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
  local have = redis.call('ZCARD', KEYS[1])
  local times = #ARGV - 4
  if times <= have then return 0 end
  for i = 5 + have, #ARGV do
    redis.call('ZADD', KEYS[1], ARGV[i], ARGV[4] .. i)
  end
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return times - have
end
local have = tonumber(redis.call('GET', KEYS[1]) or '0')
local want = tonumber(ARGV[3])
if want <= have then return 0 end
redis.call('SET', KEYS[1], want, 'PX', ARGV[2])
return want - have
`;

const RAISE = 'groundworkRateLimitRaise';

type ScriptCaller = Record<typeof COMMAND | typeof RAISE, (...args: (string | number | readonly number[])[]) => Promise<unknown>>;

/** A partition another limiter held, as MemoryRateLimiter.held() describes it. */
export interface PartitionToRaise {
  key: string;
  kind: 'sliding' | 'utc-day';
  hits: readonly number[];
  count: number;
  expiresAt: number;
  windowMs: number;
}

export interface RedisRateLimiterOptions {
  /** Default `gw:rl:`. Tests use a unique prefix under it. */
  keyPrefix?: string;
  /** Options for a connection opened from a URL. */
  redisOptions?: RedisOptions;
  onError?: (err: unknown) => void;
}

export class RedisRateLimiter implements RateLimiter {
  private readonly connection: RedisConnection;
  private readonly prefix: string;

  constructor(redis: RedisSource, options: RedisRateLimiterOptions = {}) {
    this.connection = openRedis(redis, { maxRetriesPerRequest: 2, ...options.redisOptions }, options.onError);
    this.prefix = options.keyPrefix ?? LIMIT_KEY_PREFIX;
    // Idempotent: redefining on a shared client just replaces the same script.
    this.connection.client.defineCommand(COMMAND, { lua: SCRIPT });
    this.connection.client.defineCommand(RAISE, { numberOfKeys: 1, lua: RAISE_SCRIPT });
  }

  /**
   * Brings Redis up to at least the given partitions (never lowers a count):
   * after an outage the in-process counts are pushed here, so a Redis that
   * restarted empty does not hand every client a fresh allowance. Batched in
   * pipelines; returns the number of units added.
   */
  async raise(partitions: readonly PartitionToRaise[], now: number = Date.now()): Promise<number> {
    let added = 0;
    const client = this.connection.client;
    const member = `${now}-sync-${randomUUID()}-`;
    for (let start = 0; start < partitions.length; start += 500) {
      const pipeline = client.pipeline() as unknown as ScriptCaller & { exec(): Promise<[Error | null, unknown][] | null> };
      let queued = 0;
      for (const p of partitions.slice(start, start + 500)) {
        const ttl = Math.max(1, Math.ceil(p.expiresAt - now));
        if (p.expiresAt <= now) continue;
        if (p.kind === 'sliding') {
          if (p.hits.length === 0) continue;
          // The hits as one array argument (ioredis flattens it), not spread: a partition held through
          // a busy outage has hundreds of thousands of them, past the engine's argument limit
          // ("Maximum call stack size exceeded"), and the breaker never closed again.
          void pipeline[RAISE](`${this.prefix}${p.key}`, 's', ttl, now - p.windowMs, member, p.hits);
        } else {
          if (p.count <= 0) continue;
          void pipeline[RAISE](`${this.prefix}${p.key}`, 'd', ttl, p.count);
        }
        queued++;
      }
      if (queued === 0) continue;
      const results = (await pipeline.exec()) ?? [];
      for (const [err, value] of results) {
        if (err) throw err;
        added += Number(value);
      }
    }
    return added;
  }

  async consume(rules: readonly LimitRule[], now: number = Date.now()): Promise<LimitDecision> {
    const active = enforcedRules(rules);
    if (active.length === 0) return decide(active, [], true, now);
    const { keys, args } = limitArguments(this.prefix, active, now);
    const client = this.connection.client as unknown as ScriptCaller;
    const reply = (await client[COMMAND](keys.length, ...keys, ...args)) as unknown[];
    return limitDecision(active, reply, 0, now);
  }

  async close(): Promise<void> {
    await closeRedis(this.connection);
  }
}
