/**
 * The Redis half of `compose`: one client and circuit breaker, the shared limiter (with the
 * in-process shadow that takes over during an outage), answer cache, Web Bot Auth replay store
 * and query admission. A module of its own so that ioredis is loaded only when REDIS_URL is set.
 */
import type { Logger } from 'pino';
import { RedisAnswerCache } from './adapters/cache/redis.js';
import { RedisAdmission } from './adapters/cache/redis-admission.js';
import { FallbackRateLimiter } from './adapters/limits/fallback.js';
import type { MemoryRateLimiter } from './adapters/limits/memory.js';
import { RedisRateLimiter } from './adapters/limits/redis.js';
import { RedisBreaker } from './adapters/redis-breaker.js';
import { openRedis, serviceRedisOptions } from './adapters/redis-connection.js';
import { MemoryReplayStore } from './adapters/replay/memory.js';
import { LayeredReplayStore, RedisReplayStore } from './adapters/replay/redis.js';
import type { AnswerCache } from './ports/answer-cache.js';
import type { RateLimiter } from './ports/rate-limiter.js';
import type { ReplayStore } from './ports/replay.js';

export interface RedisParts {
  breaker: RedisBreaker;
  limiter: RateLimiter;
  cache: AnswerCache;
  replay: ReplayStore;
  admission: RedisAdmission;
  /** Closes the connection (after the adapters above are closed). */
  quit(): Promise<void>;
}

export function openRedisParts(url: string, logger: Logger, shadowLimiter: MemoryRateLimiter): RedisParts {
  const redis = openRedis(url, serviceRedisOptions, (err) => logger.warn({ err: { message: (err as Error).message } }, 'redis connection error')).client;
  // One circuit breaker for every Redis user: an outage costs milliseconds, not a command timeout per query.
  // `breaker.status()` says whether Redis is in use (closed) or bypassed (open, half-open).
  const breaker = new RedisBreaker(redis, {
    onStateChange: (status, previous) => {
      if (status.state === 'open' && previous === 'closed') logger.warn({ redis: status }, 'redis unavailable; limiter, cache and replay store in process');
      // A failed probe says why the instance stays on its in-process halves (Redis down, or a recovery hook failing).
      else if (status.state === 'open' && previous === 'half-open') logger.warn({ redis: status }, 'redis probe failed; still in process');
      else if (status.state === 'closed') logger.info({ redis: status }, 'redis back; in-process limits pushed to it');
    },
  });
  const limiter = new FallbackRateLimiter(
    new RedisRateLimiter(redis),
    shadowLimiter,
    (err) => logger.warn({ err: { message: (err as Error).message } }, 'redis limiter unavailable; limiting in process'),
    { breaker },
  );
  const cache = new RedisAnswerCache(redis, {
    breaker,
    onError: (err, op) => logger.warn({ err: { message: (err as Error).message }, op }, 'answer cache unavailable'),
  });
  const replay = new LayeredReplayStore(
    new MemoryReplayStore(),
    new RedisReplayStore(redis),
    (err) => logger.warn({ err: { message: (err as Error).message } }, 'redis replay store unavailable; nonces checked in process only'),
    { breaker },
  );
  const admission = new RedisAdmission(redis, {
    breaker,
    shadow: shadowLimiter,
    onError: (err) => logger.warn({ err: { message: (err as Error).message } }, 'redis admission unavailable; knowledge base read from the store'),
  });
  return {
    breaker,
    limiter,
    cache,
    replay,
    admission,
    async quit() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
