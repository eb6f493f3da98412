/**
 * Response fields for a limiter decision, per "RateLimit header fields for
 * HTTP", draft-ietf-httpapi-ratelimit-headers-11 (May 2026; same syntax since
 * -08):
 *
 * - `RateLimit-Policy` (§3): a Structured Fields List (RFC 9651) of String
 *   items naming each quota policy, with `q` (quota, §3.1.1) and `w` (window,
 *   whole seconds, non-zero, §3.1.3). `qu` is omitted: the default unit is
 *   requests. e.g. `"minute";q=10;w=60, "day";q=100;w=86400`.
 * - `RateLimit` (§4): a List of items naming the same policies, with `r`
 *   (available quota, §4.1.1) and `t` (effective window: seconds within which
 *   no more than `r` can be used, §4.1.2). e.g. `"minute";r=3;t=20`.
 * - `Retry-After` (RFC 9110 §10.2.3, delay-seconds) on refusals. Rounded up,
 *   so it never names a time before a retry can succeed, and it is not before
 *   the end of the refusing policy's effective window (draft §6).
 *
 * Lists are serialised with ", " between members as RFC 9651 §4.1.1 does. The
 * policy names are fixed tokens-as-strings (`minute`, `day`, `ip`), so no
 * String escaping is needed. Disabled limits have no state and no member; with
 * no enforced limit the fields are omitted (the draft's lists are non-empty).
 * No `pk` partition key: the client already knows its key and address.
 */
import type { LimitDecision, LimitState } from '../ports/rate-limiter.js';

const seconds = (ms: number): number => Math.max(0, Math.ceil(ms / 1000));

export function rateLimitPolicy(states: readonly LimitState[]): string {
  return states.map((s) => `"${s.name}";q=${s.limit};w=${Math.max(1, s.windowSeconds)}`).join(', ');
}

export function rateLimit(states: readonly LimitState[]): string {
  return states.map((s) => `"${s.name}";r=${s.remaining};t=${seconds(s.resetMs)}`).join(', ');
}

/** Header fields for any response that went through the limiter (success or 429). */
export function rateLimitHeaders(decision: LimitDecision): Record<string, string> {
  const headers: Record<string, string> = {};
  if (decision.states.length > 0) {
    headers['RateLimit-Policy'] = rateLimitPolicy(decision.states);
    headers.RateLimit = rateLimit(decision.states);
  }
  if (!decision.allowed) headers['Retry-After'] = String(Math.max(1, seconds(decision.retryAfterMs)));
  return headers;
}
