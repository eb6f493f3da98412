/**
 * The whole-service limit of one request (product.md §1: IP_RATE_PER_SECOND per client address,
 * and per verified bot key), as an object that is taken exactly once.
 *
 * Most routes take it in an `onRequest` hook (http/plugins/ip-limit.ts). The query routes, when the
 * admission port is in use (PostgreSQL + Redis), hand it to the query service instead, which takes it
 * in the same Redis round trip as the key's freshness, the knowledge base's limits and the cached
 * answer (issue 14: one round trip per query). Whoever takes it settles it here; anything that ends
 * the request before that (a malformed body, a failed validation, a refused key) takes it through
 * `take()`, so every request still counts once, and a client over its limit gets the 429 first, as
 * when the hook took it.
 */
import { DomainError } from '../errors.js';
import type { LimitDecision, LimitRule, RateLimiter } from '../ports/rate-limiter.js';

/** The refusal of a request over the whole-service limit. */
export function clientRefusal(decision: LimitDecision, ratePerSecond: number): DomainError {
  return new DomainError(
    'rate_limited',
    `Too many requests from this client: the service allows ${ratePerSecond} per second.`,
    { limit: decision.refused?.name ?? 'ip', retryAfterMs: decision.retryAfterMs },
    { rateLimit: decision },
  );
}

export interface ClientLimitOptions {
  rules: readonly LimitRule[];
  ratePerSecond: number;
  /** Takes the rules alone, when nobody took them together with other work. */
  limiter: RateLimiter;
  /** Told every decision once (the request keeps it for its headers; a refusal is counted). */
  onDecision: (decision: LimitDecision) => void;
}

export class ClientLimit {
  private decision: LimitDecision | undefined;

  constructor(private readonly options: ClientLimitOptions) {}

  get rules(): readonly LimitRule[] {
    return this.options.rules;
  }

  /** True once a decision was taken (allowed or not). */
  get taken(): boolean {
    return this.decision !== undefined;
  }

  /** Records the decision taken for `rules` together with other work; throws the refusal when refused. */
  settle(decision: LimitDecision): void {
    if (this.decision !== undefined) throw new Error('the client limit was already taken');
    this.decision = decision;
    this.options.onDecision(decision);
    if (!decision.allowed) throw clientRefusal(decision, this.options.ratePerSecond);
  }

  /**
   * Takes the rules on their own unless already taken (with `limiter` instead of the usual one: the
   * in-process stand-in after a shared round trip that may have taken them failed); throws the
   * refusal when refused.
   */
  async take(now?: number, limiter: RateLimiter = this.options.limiter): Promise<void> {
    if (this.decision !== undefined) return;
    const decision = await limiter.consume(this.options.rules, now);
    // Taken meanwhile by another path of the same request: the first decision stands.
    if (this.decision !== undefined) return;
    this.settle(decision);
  }
}
