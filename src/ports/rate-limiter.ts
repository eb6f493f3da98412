/**
 * The rate-limiter port. Two implementations pass one contract suite
 * (test/limits/contract.ts): in-process (MemoryRateLimiter, one instance) and
 * Redis (RedisRateLimiter, shared by every instance of the service).
 *
 * Limits (product.md §1, §2): `minute` — QUERY_RATE_PER_MINUTE per knowledge
 * base over a sliding 60 s window; `day` — QUERY_QUOTA_PER_DAY per knowledge
 * base, a calendar-day counter that resets at 00:00 UTC; `ip` — IP_RATE_PER_SECOND
 * per client IP over a sliding 1 s window; `bot` — the same per verified Web
 * Bot Auth key, in addition to its IP's `ip` bucket; `anonymous_minute` and
 * `anonymous_hour` — anonymous agent accounts created per client
 * (identity/oauth/anonymous-account-limit.ts); `playground_minute` and
 * `playground_day` — the owner's Playground questions per account
 * (PLAYGROUND_QUERIES_PER_MINUTE, PLAYGROUND_QUERIES_PER_DAY), apart from the
 * visitors' `minute` and `day`; `import_hour` — imports from a URL an account
 * starts per hour (IMPORTS_PER_HOUR); `feedback_day` — visitors' feedback on answers per
 * knowledge base and UTC day, bounded by the day's query quota (QUERY_QUOTA_PER_DAY). A limit of 0 disables the rule: it is neither
 * enforced nor reported.
 */
import type { MaybePromise } from '../maybe-promise.js';

export type LimitName = 'minute' | 'day' | 'ip' | 'bot' | 'anonymous_minute' | 'anonymous_hour' | 'playground_minute' | 'playground_day' | 'import_hour' | 'feedback_day';

export interface LimitRule {
  name: LimitName;
  /** The partition: a ragId, a client IP, a bot key thumbprint. Distinct (name, key) pairs per call. */
  key: string;
  /** Units per window; 0 (or less) disables the rule. */
  limit: number;
  kind: 'sliding' | 'utc-day';
  /** Length of the sliding window; ignored for `utc-day`. */
  windowMs: number;
}

export interface LimitState {
  name: LimitName;
  limit: number;
  /** Units left after this decision (0 when refused). */
  remaining: number;
  /**
   * Sliding: ms until the entry that frees the next slot leaves the window (the
   * full window when the window is empty). utc-day: ms until the next 00:00 UTC.
   */
  resetMs: number;
  /** The policy window, in whole seconds (RateLimit-Policy `w`). */
  windowSeconds: number;
}

export interface LimitDecision {
  allowed: boolean;
  /**
   * When refused: the binding rule — of the rules that refused, the one that
   * frees last (the earliest in the given order on ties). Reporting that one
   * keeps `limit` and `Retry-After` in agreement: waiting for it is enough.
   */
  refused?: LimitState;
  /** One state per enforced rule, in the order given. */
  states: LimitState[];
  /** 0 when allowed; otherwise the ms after which a retry can succeed (= refused.resetMs). */
  retryAfterMs: number;
}

export interface RateLimiter {
  /**
   * Atomic across all `rules`: either every rule has room and one unit is taken
   * from each, or nothing is taken. `now` (ms since the epoch) defaults to
   * Date.now(); it is injectable for tests. With Redis the caller's clock is
   * the clock, so instances sharing a Redis need synchronised clocks (NTP).
   * The decision itself when it is made in process, a promise when Redis makes it (src/maybe-promise.ts).
   */
  consume(rules: readonly LimitRule[], now?: number): MaybePromise<LimitDecision>;
  close(): Promise<void>;
}
