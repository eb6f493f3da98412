/**
 * An "insurance" limiter: decisions come from the shared (Redis) limiter, and
 * while it fails, from an in-process one. During a Redis outage each instance
 * then enforces the limits on its own traffic — looser than global limits,
 * but the service neither stops answering nor stops limiting.
 *
 * With a `RedisBreaker` (issue 11 item 7):
 * - while the breaker is open, decisions are made in process at once — no
 *   Redis command is attempted, so an outage costs microseconds, not seconds;
 * - while Redis answers, every shared decision is mirrored into the
 *   in-process limiter (`align`: its counts are raised to the shared ones), so
 *   when Redis fails the in-process limit starts from what had been used, and
 *   a client does not get a fresh allowance from the outage;
 * - when Redis is back, before the breaker closes, the in-process counts are
 *   pushed to Redis, taking the max per partition (`raise`), so a Redis that
 *   restarted empty does not hand out a fresh allowance either.
 */
import type { RedisBreaker } from '../redis-breaker.js';
import { RedisUnavailableError } from '../redis-breaker.js';
import type { MemoryRateLimiter } from './memory.js';
import type { LimitDecision, LimitRule, RateLimiter } from '../../ports/rate-limiter.js';
import type { RedisRateLimiter } from './redis.js';

export interface FallbackOptions {
  breaker?: RedisBreaker | undefined;
}

export class FallbackRateLimiter implements RateLimiter {
  constructor(
    private readonly primary: RateLimiter,
    private readonly fallback: RateLimiter,
    private readonly onFallback: (error: unknown) => void,
    private readonly options: FallbackOptions = {},
  ) {
    const { breaker } = options;
    const shadow = this.shadow;
    const raise = (primary as Partial<Pick<RedisRateLimiter, 'raise'>>).raise?.bind(primary);
    if (breaker && shadow && raise) breaker.onRecover(async () => void (await raise(shadow.held())));
  }

  /** The in-process limiter when it can mirror shared decisions (MemoryRateLimiter). */
  private get shadow(): Pick<MemoryRateLimiter, 'align' | 'held'> | undefined {
    const candidate = this.fallback as Partial<MemoryRateLimiter>;
    return typeof candidate.align === 'function' && typeof candidate.held === 'function' ? (candidate as MemoryRateLimiter) : undefined;
  }

  async consume(rules: readonly LimitRule[], now?: number): Promise<LimitDecision> {
    const { breaker } = this.options;
    if (breaker && !breaker.available) return this.fallback.consume(rules, now);
    try {
      const decision = breaker ? await breaker.run(async () => this.primary.consume(rules, now)) : await this.primary.consume(rules, now);
      if (breaker) this.shadow?.align(rules, decision, now);
      return decision;
    } catch (error) {
      // The breaker reports its own transitions; only other failures are passed on.
      if (!(error instanceof RedisUnavailableError && breaker)) this.onFallback(error);
      return this.fallback.consume(rules, now);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.primary.close(), this.fallback.close()]);
  }
}
