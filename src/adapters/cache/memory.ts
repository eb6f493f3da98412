/**
 * In-process answer cache: LRU (lru-cache) with per-entry TTL, bounded by entry
 * count and by total stored characters.
 *
 * A value is stored as what JSON makes of it (the same as the Redis cache gives
 * back), deeply frozen: every reader shares it without a parse or a copy, and
 * nobody can change it. Its JSON length bounds the memory.
 */
import { LRUCache } from 'lru-cache';
import type { AnswerCache } from '../../ports/answer-cache.js';
import { deepFreeze, toJson } from './json.js';

/** Boxed, so that a cached `null` or `false` is still a hit. The JSON length is the entry's size. */
interface Entry {
  value: unknown;
  /** Expired from this instant on (ms, the injected clock). */
  expiresAt: number;
}

export interface MemoryAnswerCacheOptions {
  /** Default 10,000 entries. */
  maxEntries?: number;
  /** Bound on the sum of the stored JSON lengths (UTF-16 code units); default 32 Mi. */
  maxChars?: number;
  /** Clock in ms, injectable for tests. */
  now?: () => number;
}

export class MemoryAnswerCache implements AnswerCache {
  /**
   * lru-cache bounds both the count (`max`) and the summed JSON lengths (`maxSize`). Expiry is
   * checked here rather than with lru-cache's `ttl`, which treats a start time of 0 as "no TTL"
   * and expires only after (not at) the TTL: an entry is gone exactly at `expiresAt`.
   */
  private readonly entries: LRUCache<string, Entry>;
  private readonly now: () => number;

  constructor(options: MemoryAnswerCacheOptions = {}) {
    this.now = options.now ?? Date.now;
    this.entries = new LRUCache<string, Entry>({ max: options.maxEntries ?? 10_000, maxSize: options.maxChars ?? 32 * 1024 * 1024 });
  }

  get size(): number {
    return this.entries.size;
  }

  async get<T>(key: string): Promise<T | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      // An expired entry found here is dropped and is a miss.
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    this.entries.delete(key);
    if (!(ttlMs > 0)) return;
    const json = toJson(value);
    if (json === undefined || json.length > this.entries.maxSize) return;
    this.entries.set(key, { value: deepFreeze(JSON.parse(json)), expiresAt: this.now() + ttlMs }, { size: Math.max(1, json.length) });
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}
