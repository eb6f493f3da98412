/**
 * How many anonymous agent accounts one client may create (issue 11): each
 * comes with its own free quota, so without a limit one address could make
 * thirty in a second. Two sliding windows per requester (the IP, an IPv6
 * address by its /64): a small burst per minute and a cap per hour, taken
 * atomically from the shared limiter (in process, or Redis across instances).
 * A refusal is an RFC 6749 error body, since OAuth libraries call
 * `POST /oauth/register`: `429 {"error":"slow_down"}` with Retry-After and the
 * RateLimit fields. A limit of 0 disables its window.
 */
import { rateLimitHeaders } from '../../limits/headers.js';
import type { LimitRule, RateLimiter } from '../../ports/rate-limiter.js';
import { requesterKey } from '../sign-in-service.js';
import { OAuthError } from './errors.js';

export interface AnonymousAccountLimits {
  /** ANON_REGISTRATIONS_PER_MINUTE */
  perMinute: number;
  /** ANON_REGISTRATIONS_PER_HOUR */
  perHour: number;
}

export function anonymousAccountRules(limits: AnonymousAccountLimits, ip: string): LimitRule[] {
  const key = requesterKey(ip);
  return [
    { name: 'anonymous_minute', key, limit: limits.perMinute, kind: 'sliding', windowMs: 60_000 },
    { name: 'anonymous_hour', key, limit: limits.perHour, kind: 'sliding', windowMs: 3_600_000 },
  ];
}

export class AnonymousAccountLimit {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly limits: AnonymousAccountLimits,
  ) {}

  /** Takes one anonymous account from the requester's allowance, or throws 429 slow_down. */
  async take(ip: string): Promise<void> {
    const decision = await this.limiter.consume(anonymousAccountRules(this.limits, ip));
    if (decision.allowed) return;
    const perWindow = decision.refused?.name === 'anonymous_hour' ? `${this.limits.perHour} per hour` : `${this.limits.perMinute} per minute`;
    throw new OAuthError(
      'slow_down',
      `Too many anonymous registrations from this address (at most ${perWindow}). Retry after the time in Retry-After, or register with an identity assertion.`,
      429,
      rateLimitHeaders(decision),
    );
  }
}
