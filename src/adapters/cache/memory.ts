/**
 * In-process answer cache: LRU (lru-cache) with per-entry TTL, bounded by entry
 * count and by total stored characters.
 *
 * A value is stored as its JSON text and read as what JSON makes of it (the same
 * as the Redis cache gives back), deeply frozen: the first read parses it, every
 * later reader shares that value without a parse or a copy, and nobody can
 * change it. Its JSON length bounds the memory.
 */
import { LRUCache } from 'lru-cache';
import type { AnswerCache } from '../../ports/answer-cache.js';
import { deepFreeze, toJson } from './json.js';

/**
 * Boxed, so that a cached `null` or `false` is still a hit. The JSON length is the entry's size.
 * An entry keeps its JSON text until it is first read, and then the value made of it: most answers
 * are never asked for again (a new wording is a new key), and making the value of each (a parse
 * and a deep freeze, and an object graph ~2.5× the text's size kept for the TTL) was half of what
 * caching a new answer cost.
 */
interface Entry {
  /** The JSON text, until the first read makes the value. */
  json: string | undefined;
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

  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      // An expired entry found here is dropped and is a miss.
      this.entries.delete(key);
      return undefined;
    }
    if (entry.json !== undefined) {
      entry.value = deepFreeze(JSON.parse(entry.json));
      entry.json = undefined;
    }
    return entry.value as T;
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    this.entries.delete(key);
    if (!(ttlMs > 0)) return;
    const json = toJson(value);
    if (json === undefined || json.length > this.entries.maxSize) return;
    this.entries.set(key, { json, value: undefined, expiresAt: this.now() + ttlMs }, { size: Math.max(1, json.length) });
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}
