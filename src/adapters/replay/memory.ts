/**
 * In-process replay store: a Map in insertion order with an expiry per key.
 * Expired keys at the old end are dropped as new ones arrive; past
 * `maxEntries` the oldest keys are dropped even if live (memory stays bounded;
 * the signature's own expiry still limits what a replay could reuse).
 */
import type { ReplayStore } from './port.js';

export interface MemoryReplayStoreOptions {
  maxEntries?: number;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
}

export class MemoryReplayStore implements ReplayStore {
  private readonly seen = new Map<string, number>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: MemoryReplayStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    const until = this.seen.get(key);
    if (until !== undefined && until > now) return false;
    // Re-insert so the key moves to the young end with its new expiry.
    this.seen.delete(key);
    this.seen.set(key, now + Math.max(1, ttlMs));
    for (const [oldest, expiresAt] of this.seen) {
      if (this.seen.size <= this.maxEntries && expiresAt > now) break;
      this.seen.delete(oldest);
    }
    return true;
  }

  get size(): number {
    return this.seen.size;
  }

  async close(): Promise<void> {
    this.seen.clear();
  }
}
