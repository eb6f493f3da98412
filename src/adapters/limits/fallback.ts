/**
 * An "insurance" limiter: decisions come from the shared (Redis) limiter, and
 * while it fails, from an in-process one. During a Redis outage each instance
 * then enforces the limits on its own traffic — looser than global limits,
 * but the service neither stops answering nor stops limiting.
 */
import type { LimitDecision, LimitRule, RateLimiter } from './port.js';

export class FallbackRateLimiter implements RateLimiter {
  constructor(
    private readonly primary: RateLimiter,
    private readonly fallback: RateLimiter,
    private readonly onFallback: (error: unknown) => void,
  ) {}

  async consume(rules: LimitRule[], now?: number): Promise<LimitDecision> {
    try {
      return await this.primary.consume(rules, now);
    } catch (error) {
      this.onFallback(error);
      return this.fallback.consume(rules, now);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.primary.close(), this.fallback.close()]);
  }
}
