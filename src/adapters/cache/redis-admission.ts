/**
 * The admission port over Redis (ports/admission.ts): one Lua script per query takes the client's
 * whole-service limit, compares the knowledge base's stamp (`gw:kbv:<ragId>`) with the caller's
 * copy and, only when it is current, takes the knowledge base's limits (the limiter's own script,
 * LIMITS_LUA, on the limiter's keys) and reads the answer cache (the answer cache's key), so the
 * limits, key validity and the cached answer cost one round trip together. A missing stamp (never
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
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Admission, AdmissionCheck, AdmissionResult } from '../../ports/admission.js';
import type { LimitDecision, LimitRule } from '../../ports/rate-limiter.js';
import { decide, enforcedRules } from '../limits/arithmetic.js';
import { LIMIT_KEY_PREFIX, limitArguments, limitDecision, LIMITS_LUA } from '../limits/redis.js';
import type { RedisBreaker } from '../redis-breaker.js';
import { ANSWER_CACHE_PREFIX } from './redis.js';

/*
 * KEYS[1] the stamp, KEYS[2] the cached answer (the stamp again when not read), KEYS[3..2+c] the
 * client's rules, then the knowledge base's. ARGV[1] the copy's stamp ('' for none), ARGV[2] a new
 * stamp for a knowledge base without one, ARGV[3] its TTL (ms), ARGV[4] '1' to read the answer,
 * ARGV[5] c (the number of client rules), then LIMITS_LUA's arguments for the client's rules from
 * ARGV[6], then for the knowledge base's from ARGV[8 + 4c].
 * The client's rules are taken first: refused, it returns {2, <client limits>} and takes nothing
 * else. Otherwise {0, stamp, <client limits>} when the copy is stale (nothing else taken), else
 * {1, found, answer, <client limits>, <limits>}; <client limits> is absent when c is 0.
 */
const SCRIPT = `${LIMITS_LUA}
local c = tonumber(ARGV[5])
local client = {}
if c > 0 then
  client = limits(2, 6, c)
  if client[1] ~= 1 then return {2, unpack(client)} end
end
local current = redis.call('GET', KEYS[1])
if not current then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  current = ARGV[2]
end
if current ~= ARGV[1] then return {0, current, unpack(client)} end
local out = limits(2 + c, 8 + 4 * c, #KEYS - 2 - c)
local found, answer = 0, ''
if ARGV[4] == '1' and out[1] == 1 then
  local value = redis.call('GET', KEYS[2])
  if value then found, answer = 1, value end
end
for i = 1, #out do client[#client + 1] = out[i] end
return {1, found, answer, unpack(client)}
`;

const COMMAND = 'groundworkAdmit';
type ScriptCaller = Record<typeof COMMAND, (...args: string[]) => Promise<unknown[]>>;

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
    const readAnswer = request.cacheKey !== undefined;
    const call = () =>
      (this.redis as unknown as ScriptCaller)[COMMAND](
        String(client.keys.length + own.keys.length + 2),
        stampKey,
        readAnswer ? this.cachePrefix + request.cacheKey : stampKey,
        ...client.keys,
        ...own.keys,
        request.stamp ?? '',
        `${now.toString(36)}.${randomUUID()}`,
        String(this.stampTtlMs),
        readAnswer ? '1' : '0',
        String(clientActive.length),
        ...client.args,
        ...own.args,
      );
    let reply: unknown[];
    try {
      reply = await this.run(call);
    } catch (err) {
      this.report(err);
      return { kind: 'unavailable' };
    }
    const status = reply[0];
    if (status === 2) return { kind: 'client_refused', client: this.decided(clientActive, reply, 1, now) };
    const clientAt = status === 1 ? 3 : 2;
    const clientDecision = clientActive.length > 0 ? { client: this.decided(clientActive, reply, clientAt, now) } : {};
    if (status !== 1) return { kind: 'stale', stamp: String(reply[1]), ...clientDecision };
    const decision = active.length === 0 ? decide(active, [], true, now) : this.decided(active, reply, clientAt + (clientActive.length > 0 ? 1 + 2 * clientActive.length : 0), now);
    let cached: unknown;
    if (reply[1] === 1) {
      try {
        cached = JSON.parse(String(reply[2]));
      } catch {
        cached = undefined;
      }
    }
    return { kind: 'checked', decision, cached, ...clientDecision };
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
