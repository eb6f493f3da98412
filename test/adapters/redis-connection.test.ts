/**
 * The service's shared Redis connection pipelines: commands issued in one turn of the event loop
 * leave in one socket write, and each still gets its own reply. Not the queries' admission script,
 * whose calls of a turn are already one script call (adapters/redis-script-batch.ts): it is sent
 * as it is, not queued for a pipeline of its own.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RedisAdmission } from '../../src/adapters/cache/redis-admission.js';
import { closeRedis, openRedis, type RedisConnection, serviceRedisOptions } from '../../src/adapters/redis-connection.js';
import { describeIf, redis } from '../support/requirements.js';

describeIf(redis, 'the service Redis connection', () => {
  let connection: RedisConnection;
  const key = `gw:test:pipelining:${randomUUID()}`;

  beforeAll(async () => {
    connection = openRedis(process.env.REDIS_URL ?? '', serviceRedisOptions);
    await connection.client.ping();
  });
  afterAll(async () => {
    await connection.client.del(key, `${key}:kbv:kb`);
    await closeRedis(connection);
  });

  it('sends the commands of one turn in one write, each answered', async () => {
    const { client } = connection;
    const socket = (client as unknown as { stream: { write: (...args: unknown[]) => boolean } }).stream;
    const write = socket.write;
    let writes = 0;
    socket.write = function (this: unknown, ...args: unknown[]) {
      writes++;
      return write.apply(this, args);
    };
    try {
      const replies = await Promise.all(Array.from({ length: 20 }, () => client.incr(key)));
      expect(replies.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(writes).toBe(1);
    } finally {
      socket.write = write;
    }
  });

  it('sends the admission script without queuing it for auto-pipelining', async () => {
    const { client } = connection;
    const admission = new RedisAdmission(client, { stampPrefix: `${key}:kbv:`, limitPrefix: `${key}:rl:`, cachePrefix: `${key}:c:` });
    const check = admission.check({ ragId: 'kb', stamp: undefined, rules: [], now: Date.now() });
    // The batch leaves on the next turn; an auto-pipelined command would then wait for one more.
    await new Promise((resolve) => setImmediate(resolve));
    expect(client.autoPipelineQueueSize).toBe(0);
    expect((await check).kind).toBe('stale');
    // Other commands still are queued.
    const other = client.get(key);
    expect(client.autoPipelineQueueSize).toBe(1);
    await other;
  });
});
