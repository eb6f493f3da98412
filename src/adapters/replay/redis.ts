/**
 * Replay store in Redis: one `SET key 1 PX ttl NX` per claim, atomic across
 * instances. The connection belongs to the caller (compose.ts closes it).
 * `LayeredReplayStore` also remembers every key in process, so a replay to the
 * same instance is refused even while Redis is down (cross-instance replays go
 * unnoticed during an outage, which is logged).
 */
import type { Redis } from 'ioredis';
import type { ReplayStore } from './port.js';

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

export class LayeredReplayStore implements ReplayStore {
  constructor(
    private readonly local: ReplayStore,
    private readonly shared: ReplayStore,
    private readonly onError: (err: unknown) => void,
  ) {}

  async claim(key: string, ttlMs: number): Promise<boolean> {
    if (!(await this.local.claim(key, ttlMs))) return false;
    try {
      return await this.shared.claim(key, ttlMs);
    } catch (err) {
      this.onError(err);
      return true;
    }
  }

  async close(): Promise<void> {
    await this.shared.close();
    await this.local.close();
  }
}
