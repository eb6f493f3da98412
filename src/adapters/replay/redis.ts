/**
 * Replay store in Redis: one `SET key 1 PX ttl NX` per claim, atomic across
 * instances. The connection belongs to the caller (compose.ts closes it).
 * `LayeredReplayStore` also remembers every key in process, so a replay to the
 * same instance is refused even while Redis is down (cross-instance replays go
 * unnoticed during an outage, which is logged).
 *
 * With a shared `RedisBreaker`, the layered store skips Redis at once while
 * the breaker is open, remembers the keys it claimed meanwhile (bounded), and
 * pushes them to Redis (`SET NX`) before the breaker closes again, so a nonce
 * used during the outage is refused by every instance afterwards.
 */
import type { Redis } from 'ioredis';
import { type RedisBreaker, RedisUnavailableError } from '../redis-breaker.js';
import type { ReplayStore } from '../../ports/replay.js';

export class RedisReplayStore implements ReplayStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix = 'gw:replay:',
  ) {}

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const result = await this.redis.set(`${this.keyPrefix}${key}`, '1', 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX');
    return result === 'OK';
  }

  async close(): Promise<void> {}
}

export interface LayeredReplayOptions {
  breaker?: RedisBreaker | undefined;
  /** Keys claimed during an outage kept for the push on recovery; default 10 000 (oldest dropped). */
  maxPending?: number;
  now?: () => number;
}

export class LayeredReplayStore implements ReplayStore {
  /** Keys claimed in process only (Redis unavailable), with their expiry. */
  private readonly pending = new Map<string, number>();
  private readonly now: () => number;

  constructor(
    private readonly local: ReplayStore,
    private readonly shared: ReplayStore,
    private readonly onError: (err: unknown) => void,
    private readonly options: LayeredReplayOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    options.breaker?.onRecover(() => this.pushPending());
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    if (!(await this.local.claim(key, ttlMs))) return false;
    const { breaker } = this.options;
    if (breaker && !breaker.available) {
      this.remember(key, ttlMs);
      return true;
    }
    try {
      return await (breaker ? breaker.run(() => this.shared.claim(key, ttlMs)) : this.shared.claim(key, ttlMs));
    } catch (err) {
      if (!(err instanceof RedisUnavailableError && breaker)) this.onError(err);
      if (breaker) this.remember(key, ttlMs);
      return true;
    }
  }

  async close(): Promise<void> {
    await this.shared.close();
    await this.local.close();
  }

  private remember(key: string, ttlMs: number): void {
    this.pending.delete(key);
    this.pending.set(key, this.now() + ttlMs);
    const max = this.options.maxPending ?? 10_000;
    for (const oldest of this.pending.keys()) {
      if (this.pending.size <= max) break;
      this.pending.delete(oldest);
    }
  }

  private async pushPending(): Promise<void> {
    const now = this.now();
    const snapshot = [...this.pending];
    const live = snapshot.filter(([, until]) => until > now);
    for (let i = 0; i < live.length; i += 200) {
      await Promise.all(live.slice(i, i + 200).map(([key, until]) => this.shared.claim(key, until - now)));
    }
    for (const [key] of snapshot) this.pending.delete(key);
  }
}
