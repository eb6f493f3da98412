/**
 * The service's shared Redis connection pipelines: commands issued in one turn of the event loop
 * (the admission scripts of the queries read in one poll) leave in one socket write, and each
 * still gets its own reply.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
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
    await connection.client.del(key);
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
});
