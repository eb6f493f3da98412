/**
 * Answer cache in Redis, shared by every instance: JSON text under `gw:cache:`
 * with a PX expiry, so Redis drops stale answers by itself.
 *
 * The cache must never fail or stall a query. Every command is raced against a
 * short deadline; an error or a late reply on `get` is a miss, on `set` the
 * write is dropped. Both are reported to `onError` for the caller to log. A
 * connection opened here from a URL gives up on a command after one failed
 * reconnect (maxRetriesPerRequest: 1), so commands queued during an outage
 * are released within seconds; the deadline means no query waits for them.
 *
 * With a shared `RedisBreaker` (compose.ts), commands go through it instead:
 * while it is open a `get` is a miss and a `set` is dropped at once, without
 * touching Redis and without an `onError` report per command (the breaker
 * reports its transitions).
 */
import type { RedisOptions } from 'ioredis';
import { type RedisBreaker, RedisUnavailableError } from '../redis-breaker.js';
import type { AnswerCache } from '../../ports/answer-cache.js';
import { toJson } from './json.js';
import { closeRedis, openRedis, type RedisConnection, type RedisSource } from '../redis-connection.js';

/** Default key prefix of cached answers (the admission script reads them too). */
export const ANSWER_CACHE_PREFIX = 'gw:cache:';

export interface RedisAnswerCacheOptions {
  /** Default `gw:cache:`. Tests use a unique prefix under it. */
  keyPrefix?: string;
  /** Deadline per command in ms; default 250. */
  timeoutMs?: number;
  /** Options for a connection opened from a URL. */
  redisOptions?: RedisOptions;
  onError?: (err: unknown, operation: 'get' | 'set' | 'connection') => void;
  /** Shared breaker (see redis-breaker.ts); its deadline replaces `timeoutMs`. */
  breaker?: RedisBreaker | undefined;
}

export class RedisAnswerCache implements AnswerCache {
  private readonly connection: RedisConnection;
  private readonly prefix: string;
  private readonly timeoutMs: number;
  private readonly onError: (err: unknown, operation: 'get' | 'set' | 'connection') => void;
  private readonly breaker: RedisBreaker | undefined;

  constructor(redis: RedisSource, options: RedisAnswerCacheOptions = {}) {
    this.onError = options.onError ?? (() => {});
    const defaults: RedisOptions = { maxRetriesPerRequest: 1 };
    this.connection = openRedis(redis, { ...defaults, ...options.redisOptions }, (err) => this.onError(err, 'connection'));
    this.prefix = options.keyPrefix ?? ANSWER_CACHE_PREFIX;
    this.timeoutMs = options.timeoutMs ?? 250;
    this.breaker = options.breaker;
  }

  async get<T>(key: string): Promise<T | undefined> {
    try {
      const json = await this.command(() => this.connection.client.get(this.prefix + key));
      return json === null ? undefined : (JSON.parse(json) as T);
    } catch (err) {
      if (!(err instanceof RedisUnavailableError && this.breaker)) this.onError(err, 'get');
      return undefined;
    }
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    if (!(ttlMs > 0)) return;
    const json = toJson(value);
    if (json === undefined) return;
    try {
      await this.command(() => this.connection.client.set(this.prefix + key, json, 'PX', Math.ceil(ttlMs)));
    } catch (err) {
      if (!(err instanceof RedisUnavailableError && this.breaker)) this.onError(err, 'set');
    }
  }

  async close(): Promise<void> {
    await closeRedis(this.connection);
  }

  private command<R>(send: () => Promise<R>): Promise<R> {
    return this.breaker ? this.breaker.run(send) : this.deadline(send());
  }

  private deadline<R>(command: Promise<R>): Promise<R> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`redis cache: no reply within ${this.timeoutMs} ms`)), this.timeoutMs);
      timer.unref();
    });
    // A command that fails after losing the race must not become an unhandled rejection.
    command.catch(() => {});
    return Promise.race([command, late]).finally(() => clearTimeout(timer));
  }
}
