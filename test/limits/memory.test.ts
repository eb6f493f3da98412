import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../src/adapters/limits/memory.js';
import type { LimitRule } from '../../src/ports/rate-limiter.js';
import { rateLimiterContract } from './contract.js';

describe('memory rate limiter contract', () => {
  rateLimiterContract({ make: async () => new MemoryRateLimiter(), sharedState: false });
});

describe('memory rate limiter housekeeping', () => {
  const T0 = Date.UTC(2031, 4, 6, 12);
  const sliding = (key: string): LimitRule => ({ name: 'ip', key, limit: 5, kind: 'sliding', windowMs: 1_000 });
  const day = (key: string): LimitRule => ({ name: 'day', key, limit: 5, kind: 'utc-day', windowMs: 0 });

  it('drops partitions whose window has emptied, and day counters after their day', async () => {
    const limiter = new MemoryRateLimiter({ sweepEveryMs: 10_000 });
    for (let i = 0; i < 100; i++) await limiter.consume([sliding(`10.0.0.${i}`)], T0);
    await limiter.consume([day('kb')], T0);
    expect(limiter.size).toBe(101);
    await limiter.consume([], T0 + 5_000); // not yet due
    expect(limiter.size).toBe(101);
    await limiter.consume([], T0 + 10_000);
    expect(limiter.size).toBe(1); // the day counter lives until the end of its day (plus margin)
    await limiter.consume([], Date.UTC(2031, 4, 7, 2));
    expect(limiter.size).toBe(0);
  });

  it('sweeps sooner when crowded, and never drops a live partition', async () => {
    const limiter = new MemoryRateLimiter({ sweepEveryMs: 60_000, sweepAboveKeys: 10 });
    for (let i = 0; i < 20; i++) await limiter.consume([sliding(`a${i}`)], T0);
    await limiter.consume([sliding('live')], T0 + 1_500);
    expect(limiter.size).toBe(1);
    for (let i = 0; i < 4; i++) await limiter.consume([sliding('live')], T0 + 1_600);
    expect(await limiter.consume([sliding('live')], T0 + 1_700)).toMatchObject({ allowed: false, retryAfterMs: 800 });
  });

  it('deletes a partition whose log empties during a refused decision', async () => {
    const limiter = new MemoryRateLimiter({ sweepEveryMs: 1e12 });
    const quota = { ...day('y'), limit: 1 };
    await limiter.consume([sliding('x')], T0);
    await limiter.consume([quota], T0);
    expect(limiter.size).toBe(2);
    expect((await limiter.consume([sliding('x'), quota], T0 + 2_000)).refused?.name).toBe('day');
    expect(limiter.size).toBe(1);
    await limiter.close();
    expect(limiter.size).toBe(0);
  });
});
