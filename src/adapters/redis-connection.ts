/**
 * "A Redis URL or an existing client": the service shares one ioredis
 * connection between the cache, the limiters and invalidation; tests and tools
 * may pass a URL instead. Only a connection opened here is closed here.
 */
import { Redis, type RedisOptions } from 'ioredis';

/** The admission script's command (adapters/cache/redis-admission.ts), named here so the connection can leave it out of auto-pipelining. */
export const ADMISSION_COMMAND = 'groundworkAdmit';

export type RedisSource = string | Redis;

export interface RedisConnection {
  client: Redis;
  owned: boolean;
}

/**
 * How the service's shared connection is opened. Commands issued in the same turn of the event loop
 * leave in one socket write and their replies come back in one read (auto-pipelining). Not the
 * queries' admission script: its calls of one turn are already one script call (ScriptBatch,
 * adapters/redis-script-batch.ts), and a pipeline of one command only added ioredis's pipeline
 * machinery to every query (docs/indexing.md, "Session 40").
 */
export const serviceRedisOptions: RedisOptions = {
  maxRetriesPerRequest: 2,
  enableOfflineQueue: true,
  connectTimeout: 5000,
  commandTimeout: 1000,
  enableAutoPipelining: true,
  autoPipeliningIgnoredCommands: [ADMISSION_COMMAND],
};

export function openRedis(source: RedisSource, options: RedisOptions, onError?: (err: unknown) => void): RedisConnection {
  if (typeof source !== 'string') return { client: source, owned: false };
  const client = new Redis(source, options);
  // Without a listener ioredis prints "Unhandled error event" on every failed
  // reconnect; the owner decides whether and how to log.
  client.on('error', (err: unknown) => onError?.(err));
  return { client, owned: true };
}

export async function closeRedis(connection: RedisConnection): Promise<void> {
  if (!connection.owned) return;
  const { client } = connection;
  if (client.status === 'end') return;
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}
