/**
 * The admission port: everything a query needs fresh from the shared Redis, in one round trip
 * (issue 14). An instance keeps its knowledge-base rows (and, through `keysVersion`, its verified
 * keys) in process, each copy tagged with the knowledge base's **stamp**, a token in Redis that
 * every committed change of the knowledge base replaces (`changed`). One `check` then confirms that
 * the copy is still current, takes the limits and reads the answer cache, atomically; a stale copy
 * takes and reads nothing, and the caller reads the row again under the stamp it got back.
 *
 * Implemented over Redis only (adapters/cache/redis-admission.ts): without Redis there is nothing
 * shared to confirm a copy with, and the query path reads the row from the store every time.
 */
import type { LimitDecision, LimitRule } from './rate-limiter.js';

export interface AdmissionCheck {
  ragId: string;
  /** The stamp the caller's copy was read under; undefined when it has none (always "stale"). */
  stamp: string | undefined;
  /** Taken only when the copy is current (atomic over all of them, as RateLimiter.consume). */
  rules: readonly LimitRule[];
  /**
   * The request's whole-service limit (its address's and its bot key's buckets), taken first and
   * whatever the copy: a request counts once against it even when its copy turns out stale. When it
   * refuses, nothing else is taken or read. Empty or absent: nothing to take.
   */
  clientRules?: readonly LimitRule[] | undefined;
  /** The answer-cache key to read in the same round trip, when the cache is on. */
  cacheKey?: string | undefined;
  now: number;
}

export type AdmissionResult =
  /** The copy is out of date (or there was none): nothing but `clientRules` was taken; read the row again under `stamp`. */
  | { kind: 'stale'; stamp: string; client?: LimitDecision }
  /** The copy is current: the limits' decision, and the cached answer (undefined: none, or refused). */
  | { kind: 'checked'; decision: LimitDecision; cached: unknown; client?: LimitDecision }
  /** `clientRules` refused the request: nothing else was taken, the copy was not judged. */
  | { kind: 'client_refused'; client: LimitDecision }
  /** Redis is not answering: the caller falls back to the store, the in-process limiter and no cache. */
  | { kind: 'unavailable' };

export interface Admission {
  check(request: AdmissionCheck): Promise<AdmissionResult>;
  /**
   * After a committed change of the knowledge base (its row, keys or records): every instance's
   * copy becomes stale. Never throws; a change Redis did not take is retried when it is back.
   */
  changed(ragId: string): Promise<void>;
  /** Called whenever copies may have missed a change (Redis back after an outage): drop them all. */
  onReset(listener: () => void): void;
  close(): Promise<void>;
}
