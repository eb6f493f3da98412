/**
 * In-process answer cache: LRU with per-entry TTL, bounded by entry count and
 * by total stored characters. A Map keeps insertion order, so re-inserting on
 * every hit makes its first key the least recently used — an O(1) LRU.
 *
 * A value is stored as what JSON makes of it (the same as the Redis cache gives
 * back), deeply frozen: every reader shares it without a parse or a copy, and
 * nobody can change it. Its JSON length bounds the memory.
 */
import { type AnswerCache, toJson } from './port.js';

interface Entry {
  value: unknown;
  /** Length of the value's JSON text, for the memory bound. */
  chars: number;
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
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly maxChars: number;
  private readonly now: () => number;
  private chars = 0;

  constructor(options: MemoryAnswerCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.maxChars = options.maxChars ?? 32 * 1024 * 1024;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  async get<T>(key: string): Promise<T | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) {
      this.chars -= entry.chars;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.value as T;
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    this.remove(key);
    if (!(ttlMs > 0)) return;
    const json = toJson(value);
    if (json === undefined || json.length > this.maxChars) return;
    this.entries.set(key, { value: deepFreeze(JSON.parse(json)), chars: json.length, expiresAt: this.now() + ttlMs });
    this.chars += json.length;
    this.evict();
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.chars = 0;
  }

  private remove(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.chars -= old.chars;
  }

  /** Drop the least recently used entries until both bounds hold. Expired entries go when reached or evicted. */
  private evict(): void {
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) return;
      this.remove(key);
    }
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
