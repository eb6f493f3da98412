/**
 * A query whose admission round trip times out while Redis is only slow (busy), not down: the
 * script still runs when Redis gets to it, so the query's limits are already taken there. The
 * fallback must take them in process, not send them to Redis a second time (that made a query
 * count twice, and a knowledge base hit its limit early under load). A private redis-server is
 * paused (CLIENT PAUSE: commands wait, no CPU is spent), so no other test's Redis is slowed.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeIf } from '../support/requirements.js';
import { type RedisProcess, redisServerAvailable, startRedis } from '../support/redis-process.js';
import { type Client, signedInClient, startServer, type TestServer } from '../support/server.js';
import { ask, faqKnowledgeBase } from './helpers.js';

describeIf(redisServerAvailable, 'a Redis reply that comes late', () => {
  let redis: RedisProcess;
  let server: TestServer;
  let alice: Client;
  let direct: Redis;

  beforeAll(async () => {
    redis = await startRedis();
    server = await startServer({ REDIS_URL: redis.url, QUERY_RATE_PER_MINUTE: '5', QUERY_QUOTA_PER_DAY: '0' });
    alice = await signedInClient(server.baseUrl);
    direct = new Redis(redis.url, { maxRetriesPerRequest: 0 });
    direct.on('error', () => {});
  });

  afterAll(async () => {
    direct?.disconnect();
    await server?.stop();
    await redis?.stop();
  });

  it('counts the query once in Redis: its limits are taken in process, not sent again', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice);
    const minuteKey = `gw:rl:minute:${ragId}`;
    // Redis answers at once: one query, one entry in the knowledge base's minute window.
    expect((await ask(server.baseUrl, apiKey, ragId, 'Where do orders ship from?')).status).toBe(200);
    expect(await direct.zcard(minuteKey)).toBe(1);

    // Redis holds every command for 2 s: the next query's admission times out (the breaker allows
    // 150 ms), yet its script runs when the pause ends.
    expect(await direct.call('CLIENT', 'PAUSE', '2000', 'ALL')).toBe('OK');
    const during = await ask(server.baseUrl, apiKey, ragId, 'Do you ship to Canada?');
    expect(during.status, JSON.stringify(during.body)).toBe(200);
    // Sent after the server's commands, so answered after them, once the pause is over.
    expect(await direct.ping()).toBe('PONG');
    // Before: 3 (the late script's entry, and the fallback's sent to Redis again).
    expect(await direct.zcard(minuteKey)).toBe(2);
  });
});
