/**
 * The admission port over Redis (ports/admission.ts): one Lua script per query takes the client's
 * whole-service limit, compares the knowledge base's stamp (`gw:kbv:<ragId>`) with the caller's
 * copy and, only when it is current, takes the knowledge base's limits (the limiter's own script,
 * LIMITS_LUA, on the limiter's keys) and reads the answer cache (the answer cache's key), so the
 * limits, key validity and the cached answer cost one round trip together. The checks of one turn
 * of the event loop share that round trip: they run as the entries of one batch script, each
 * atomic (adapters/redis-script-batch.ts). A missing stamp (never
 * set, expired, or an emptied Redis) is created by the script itself and differs from every copy,
 * so the caller reads the row again.
 *
 * `changed` deletes the stamp after a commit: the next check on any instance finds a new one. A
 * delete Redis did not take is kept and retried (every second, and when the breaker recovers), and
 * every recovery resets the copies (`onReset`): changes made while this instance could not reach
 * Redis were not stamped.
 *
 * Through the shared RedisBreaker (compose.ts): while it is open `check` answers `unavailable` at
 * once. Decisions taken here are mirrored into the in-process limiter (`shadow`), as
 * FallbackRateLimiter does, so an outage does not hand out a fresh allowance.
 */
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { uniqueToken } from '../../ids.js';
import type { Admission, AdmissionCheck, AdmissionResult } from '../../ports/admission.js';
import type { LimitDecision, LimitRule } from '../../ports/rate-limiter.js';
import { decide, enforcedRules } from '../limits/arithmetic.js';
import { LIMIT_KEY_PREFIX, limitArguments, limitDecision, LIMITS_LUA } from '../limits/redis.js';
import type { RedisBreaker } from '../redis-breaker.js';
import { ADMISSION_COMMAND } from '../redis-connection.js';
import { BATCH_LUA, ScriptBatch, type SendBatch } from '../redis-script-batch.js';
import { ANSWER_CACHE_PREFIX } from './redis.js';
import { deepFreeze } from './json.js';

/*
 * One query's admission, as the batch's `entry` (adapters/redis-script-batch.ts): its keys are
 * K[1] the stamp, K[2] the cached answer (the stamp again when not read), K[3..2+c] the client's
 * rules, then the knowledge base's; its arguments A[1] the copy's stamp ('' for none), A[2] a new
 * stamp for a knowledge base without one, A[3] its TTL (ms), A[4] '1' to read the answer, A[5] c (the
 * number of client rules), then LIMITS_LUA's arguments for the client's rules from A[6], then for
 * the knowledge base's from A[8 + 4c] (K[i] is KEYS[k + i]; A is the entry's table of arguments).
 * The client's rules are taken first: refused, it returns {2, <client limits>} and takes nothing
 * else. Otherwise {0, stamp, <client limits>} when the copy is stale (nothing else taken), else
 * {1, found, answer, ttl, <client limits>, <limits>} (ttl: the answer's remaining PTTL, ms);
 * <client limits> is absent when c is 0.
 */
const SCRIPT = `${LIMITS_LUA}
local function entry(k, A, nk)
  local c = tonumber(A[5])
  local client = {}
  if c > 0 then
    client = limits(k + 2, A, 6, c)
    if client[1] ~= 1 then return {2, unpack(client)} end
  end
  local current = redis.call('GET', KEYS[k + 1])
  if not current then
    redis.call('SET', KEYS[k + 1], A[2], 'PX', A[3])
    current = A[2]
  end
  if current ~= A[1] then return {0, current, unpack(client)} end
  local out = limits(k + 2 + c, A, 8 + 4 * c, nk - 2 - c)
  local found, answer, ttl = 0, '', -2
  if A[4] == '1' and out[1] == 1 then
    local value = redis.call('GET', KEYS[k + 2])
    if value then found, answer, ttl = 1, value, redis.call('PTTL', KEYS[k + 2]) end
  end
  for i = 1, #out do client[#client + 1] = out[i] end
  return {1, found, answer, ttl, unpack(client)}
end
${BATCH_LUA}`;

const COMMAND = ADMISSION_COMMAND;
type ScriptCaller = Record<typeof COMMAND, SendBatch>;

export interface RedisAdmissionOptions {
  breaker?: RedisBreaker | undefined;
  /** The in-process limiter that takes over during an outage: shared decisions are mirrored into it. */
  shadow?: { align(rules: readonly LimitRule[], decision: LimitDecision, now?: number): void } | undefined;
  /** Must match the limiter's and the answer cache's prefixes (their defaults by default). */
  limitPrefix?: string;
  cachePrefix?: string;
  stampPrefix?: string;
  /** How long an unused stamp lives; default one day (a lost stamp costs one row read per instance). */
  stampTtlMs?: number;
  /** Bound on the answers kept in process (the sum of their JSON lengths); default 4 Mi. 0: none kept. */
  answerMemoChars?: number;
  /** Retry interval for changes Redis did not take; default 1 s. */
  retryMs?: number;
  onError?: (err: unknown) => void;
}

export class RedisAdmission implements Admission {
  private readonly limitPrefix: string;
  private readonly cachePrefix: string;
  private readonly stampPrefix: string;
  private readonly stampTtlMs: number;
  private readonly retryMs: number;
  private readonly listeners: (() => void)[] = [];
  /** Knowledge bases whose change Redis has not taken yet. */
  private readonly pending = new Set<string>();
  private retryTimer: NodeJS.Timeout | undefined;
  /** The checks of one turn of the event loop, in one script call. */
  private readonly batch: ScriptBatch;
  /**
   * Cached answers this instance has read, parsed and frozen, each until the instant its Redis entry
   * expires: a check whose answer is here does not read it again. An answer's key names its
   * knowledge base's content version, question, mode and context, and answers are never replaced
   * by different ones under a key, so the copy is exactly what Redis would send until then.
   */
  private readonly answers: LRUCache<string, { value: unknown; expiresAt: number }> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly options: RedisAdmissionOptions = {},
  ) {
    this.limitPrefix = options.limitPrefix ?? LIMIT_KEY_PREFIX;
    this.cachePrefix = options.cachePrefix ?? ANSWER_CACHE_PREFIX;
    this.stampPrefix = options.stampPrefix ?? 'gw:kbv:';
    this.stampTtlMs = options.stampTtlMs ?? 86_400_000;
    this.retryMs = options.retryMs ?? 1000;
    redis.defineCommand(COMMAND, { lua: SCRIPT });
    const send: SendBatch = (...keysAndArgs) => this.run(() => (redis as unknown as ScriptCaller)[COMMAND](...keysAndArgs));
    this.batch = new ScriptBatch(send);
    const memoChars = options.answerMemoChars ?? 4 * 1024 * 1024;
    this.answers = memoChars > 0 ? new LRUCache({ max: 10_000, maxSize: memoChars }) : undefined;
    // Copies may have missed changes while Redis was away: start over, and stamp what was not stamped.
    options.breaker?.onRecover(async () => {
      await this.flushPending(true);
      this.reset();
    });
  }

  async check(request: AdmissionCheck): Promise<AdmissionResult> {
    const { now } = request;
    const active = enforcedRules(request.rules);
    const clientActive = request.clientRules ? enforcedRules(request.clientRules) : [];
    // Without client rules their block is two placeholders (LIMITS_LUA's now and member, unread).
    const client = clientActive.length > 0 ? limitArguments(this.limitPrefix, clientActive, now) : { keys: [], args: ['0', ''] };
    const own = limitArguments(this.limitPrefix, active, now);
    const stampKey = this.stampPrefix + request.ragId;
    const memo = request.cacheKey === undefined ? undefined : this.answers?.get(request.cacheKey);
    const known = memo && memo.expiresAt > now ? memo : undefined;
    const readAnswer = request.cacheKey !== undefined && known === undefined;
    const keys = [stampKey, readAnswer ? this.cachePrefix + request.cacheKey : stampKey, ...client.keys, ...own.keys];
    const args = [
      request.stamp ?? '',
      `${now.toString(36)}.${uniqueToken()}`,
      String(this.stampTtlMs),
      readAnswer ? '1' : '0',
      String(clientActive.length),
      ...client.args,
      ...own.args,
    ];
    let reply: unknown[];
    try {
      reply = await this.batch.call(keys, args);
    } catch (err) {
      this.report(err);
      return { kind: 'unavailable' };
    }
    const status = reply[0];
    if (status === 2) return { kind: 'client_refused', client: this.decided(clientActive, reply, 1, now) };
    const clientAt = status === 1 ? 4 : 2;
    const clientDecision = clientActive.length > 0 ? { client: this.decided(clientActive, reply, clientAt, now) } : {};
    if (status !== 1) return { kind: 'stale', stamp: String(reply[1]), ...clientDecision };
    const decision = active.length === 0 ? decide(active, [], true, now) : this.decided(active, reply, clientAt + (clientActive.length > 0 ? 1 + 2 * clientActive.length : 0), now);
    let cached: unknown;
    if (known) cached = decision.allowed ? known.value : undefined;
    else if (reply[1] === 1) cached = this.parsed(request.cacheKey as string, String(reply[2]), Number(reply[3]), now);
    return { kind: 'checked', decision, cached, ...clientDecision };
  }

  /** A cached answer read from Redis, kept in process for as long as Redis keeps it (`ttl` ms). */
  private parsed(key: string, json: string, ttl: number, now: number): unknown {
    let value: unknown;
    try {
      value = deepFreeze(JSON.parse(json));
    } catch {
      return undefined;
    }
    if (this.answers && ttl > 0 && json.length <= this.answers.maxSize) this.answers.set(key, { value, expiresAt: now + ttl }, { size: Math.max(1, json.length) });
    return value;
  }

  /** The decision over `active` from the limits' part of a reply at `offset`, mirrored into the shadow limiter. */
  private decided(active: readonly LimitRule[], reply: readonly unknown[], offset: number, now: number): LimitDecision {
    const decision = limitDecision(active, reply, offset, now);
    this.options.shadow?.align(active, decision, now);
    return decision;
  }

  async changed(ragId: string): Promise<void> {
    this.pending.add(ragId);
    await this.flushPending(false);
  }

  onReset(listener: () => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private reset(): void {
    for (const listener of this.listeners) listener();
  }

  /** Deletes the pending stamps; `direct` bypasses the breaker (its recovery hooks run before it closes). */
  private async flushPending(direct: boolean): Promise<void> {
    if (this.pending.size === 0) return;
    const ragIds = [...this.pending];
    const del = () => this.redis.del(...ragIds.map((id) => this.stampPrefix + id));
    try {
      await (direct ? del() : this.run(del));
      for (const id of ragIds) this.pending.delete(id);
    } catch (err) {
      this.report(err);
      if (direct) throw err;
      this.retryTimer ??= setTimeout(() => {
        this.retryTimer = undefined;
        void this.flushPending(false);
      }, this.retryMs);
      this.retryTimer.unref();
    }
  }

  private run<R>(command: () => Promise<R>): Promise<R> {
    return this.options.breaker ? this.options.breaker.run(command) : command();
  }

  private report(err: unknown): void {
    // The breaker reports its own transitions; other failures are passed on.
    if (!(this.options.breaker && (err as Error)?.name === 'RedisUnavailableError')) this.options.onError?.(err);
  }
}
