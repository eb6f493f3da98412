/**
 * In-process replay store: lru-cache in claim order with an expiry per key.
 * Expired keys at the old end are dropped as new ones arrive; past
 * `maxEntries` the oldest claims are dropped even if live (memory stays
 * bounded; the signature's own expiry still limits what a replay could reuse).
 */
import { LRUCache } from 'lru-cache';
import type { ReplayStore } from '../../ports/replay.js';

export interface MemoryReplayStoreOptions {
  maxEntries?: number;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
}

export class MemoryReplayStore implements ReplayStore {
  /** Claimed keys and when each expires (ms); lru-cache drops the oldest claims past `maxEntries`. */
  private readonly seen: LRUCache<string, number>;
  private readonly now: () => number;

  constructor(options: MemoryReplayStoreOptions = {}) {
    this.seen = new LRUCache<string, number>({ max: options.maxEntries ?? 100_000 });
    this.now = options.now ?? Date.now;
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    // `peek`: a refused replay does not make its key younger.
    const until = this.seen.peek(key);
    if (until !== undefined && until > now) return false;
    // A (re)claimed key moves to the young end with its new expiry.
    this.seen.set(key, now + Math.max(1, ttlMs));
    this.dropExpired(now);
    return true;
  }

  get size(): number {
    return this.seen.size;
  }

  async close(): Promise<void> {
    this.seen.clear();
  }

  /** Expired claims at the old end go as new ones arrive (expiry is checked here, not with lru-cache's `ttl`). */
  private dropExpired(now: number): void {
    const expired: string[] = [];
    for (const key of this.seen.rkeys()) {
      if ((this.seen.peek(key) ?? 0) > now) break;
      expired.push(key);
    }
    for (const key of expired) this.seen.delete(key);
  }
}
