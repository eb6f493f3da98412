/**
 * `/readyz` during a Redis outage: the instance keeps serving (limits and caches fall back to the
 * process), so Redis is reported as degraded while the instance stays ready, and as ok again once
 * Redis is back. The probe answers from the circuit breaker's state, never waiting on Redis.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeIf } from '../support/requirements.js';
import { startServer, type TestServer } from '../support/server.js';
import { type RedisProcess, redisServerAvailable, startRedis } from '../support/redis-process.js';

interface Readiness {
  status: number;
  body: { status: string; checks: Record<string, string> };
}

describeIf(redisServerAvailable, 'readiness with Redis behind the breaker', () => {
  let redis: RedisProcess;
  let server: TestServer;

  beforeAll(async () => {
    redis = await startRedis();
    server = await startServer({ REDIS_URL: redis.url });
  });

  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  const ready = async (): Promise<Readiness> => {
    const response = await fetch(`${server.baseUrl}/readyz`);
    return { status: response.status, body: (await response.json()) as Readiness['body'] };
  };

  it('reports Redis degraded while it is down, stays ready, and reports it ok again when it returns', async () => {
    expect(await ready()).toEqual({ status: 200, body: { status: 'ok', checks: { database: 'ok', redis: 'ok' } } });
    await redis.kill();
    // The breaker opens on the first failed command or the closed connection; queries drive commands.
    await expect
      .poll(
        async () => {
          await fetch(`${server.baseUrl}/api/v1/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
          return (await ready()).body.checks.redis;
        },
        { timeout: 15_000, interval: 100 },
      )
      .toBe('degraded');
    const during = await ready();
    expect(during.status).toBe(200);
    expect(during.body.checks.database).toBe('ok');
    await redis.restart();
    await expect.poll(async () => (await ready()).body.checks.redis, { timeout: 20_000, interval: 200 }).toBe('ok');
  });
});
