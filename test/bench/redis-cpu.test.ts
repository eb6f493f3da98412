/**
 * The `stores` benchmark reports Redis's own CPU per query beside the instance's (bench/stores.ts):
 * read from a real Redis's `INFO cpu`, it must be a count of microseconds that grows with work.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { redisCpuMicros } from '../../bench/stores.js';
import { describeIf, redis } from '../support/requirements.js';

describeIf(redis, "the benchmark's Redis CPU reading", () => {
  let client: Redis;
  beforeAll(() => {
    client = new Redis(process.env.REDIS_URL ?? '');
  });
  afterAll(async () => {
    await client.quit();
  });

  it("reads Redis's user + system CPU as whole microseconds, and it grows while Redis works", async () => {
    const before = await redisCpuMicros(client);
    expect(Number.isInteger(before)).toBe(true);
    expect(before).toBeGreaterThan(0);
    // Enough work that Redis's CPU counters (10 ms resolution on Linux) must move.
    await expect
      .poll(
        async () => {
          await Promise.all(Array.from({ length: 2000 }, () => client.eval("local s = 0 for i = 1, 2000 do s = s + i end return s", 0)));
          return (await redisCpuMicros(client)) - before;
        },
        { timeout: 60_000, interval: 0 },
      )
      .toBeGreaterThan(0);
  });
});
