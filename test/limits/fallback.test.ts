import { describe, expect, it } from 'vitest';
import { FallbackRateLimiter } from '../../src/adapters/limits/fallback.js';
import { MemoryRateLimiter } from '../../src/adapters/limits/memory.js';
import type { LimitRule, RateLimiter } from '../../src/ports/rate-limiter.js';
import { RedisRateLimiter } from '../../src/adapters/limits/redis.js';

const rule: LimitRule = { name: 'minute', key: 'kb_fallback', limit: 2, kind: 'sliding', windowMs: 60_000 };

describe('fallback limiter', () => {
  it('keeps limiting in process while the shared limiter is unreachable', async () => {
    // Nothing listens on port 1: every Redis command fails fast.
    const unreachable = new RedisRateLimiter('redis://127.0.0.1:1', {
      redisOptions: { maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: 200, retryStrategy: () => null, lazyConnect: true },
    });
    const failures: unknown[] = [];
    const limiter = new FallbackRateLimiter(unreachable, new MemoryRateLimiter(), (e) => failures.push(e));
    const decisions = [await limiter.consume([rule], 1000), await limiter.consume([rule], 1001), await limiter.consume([rule], 1002)];
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
    expect(failures).toHaveLength(3);
    await limiter.close();
  });

  it('uses the primary while it answers', async () => {
    const calls: string[] = [];
    const primary: RateLimiter = {
      consume: async () => {
        calls.push('primary');
        return { allowed: true, states: [], retryAfterMs: 0 };
      },
      close: async () => undefined,
    };
    const limiter = new FallbackRateLimiter(primary, new MemoryRateLimiter(), () => calls.push('fallback'));
    await limiter.consume([rule]);
    expect(calls).toEqual(['primary']);
  });
});
