/**
 * The answer-cache port (product.md §1 "repeat queries served from memory for
 * 60 s", §5 Cache). Two implementations pass one contract suite
 * (test/cache/contract.ts): an in-process LRU and Redis (shared by instances).
 *
 * Values must be JSON-serialisable; both backends give back what JSON makes of
 * the value (JSON.parse(JSON.stringify(value))), as a fresh copy (Redis) or a
 * deeply frozen shared one (in process), so a caller can never change a cached
 * answer and both backends behave alike. Treat what `get` returns as read-only.
 *
 * The cache never fails a query: a backend error on `get` is a miss and on
 * `set` is dropped (reported through the implementation's `onError`).
 * Invalidation is by key: keys embed the knowledge base's content version
 * (see answerCacheKey in answer-cache-key.ts), so new content is a different key at once.
 * The port belongs to the domain (src/ports); the implementations are in src/adapters/cache.
 */
import type { MaybePromise } from '../maybe-promise.js';
export interface AnswerCache {
  /** The value itself from the in-process cache, a promise from Redis (src/maybe-promise.ts). */
  get<T>(key: string): MaybePromise<T | undefined>;
  /** `ttlMs` ≤ 0 stores nothing (QUERY_CACHE_TTL_SECONDS=0 disables the cache). */
  set<T>(key: string, value: T, ttlMs: number): Promise<void>;
  close(): Promise<void>;
}
