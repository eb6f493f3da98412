/**
 * The whole-service limit (product.md §1: under IP_RATE_PER_SECOND requests
 * per second per client). The client is the request's IP — the proxy's
 * X-Forwarded-For only when TRUST_PROXY names that proxy — or, for a verified
 * signed bot, the bot's key (set by the Web Bot Auth plugin before this hook).
 * Only the liveness probe is exempt: it touches nothing. `/readyz` asks the
 * database and `/metrics` renders every series, so both count like any request.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { rateLimitHeaders } from '../../limits/headers.js';
import type { LimitDecision, RateLimiter } from '../../ports/rate-limiter.js';
import { clientRules } from '../../limits/rules.js';
import type { Metrics } from '../../ops/metrics.js';
import { ClientLimit, clientRefusal } from '../../limits/client-limit.js';
import { isPromise } from '../../maybe-promise.js';

const exempt = new Set(['/healthz']);

declare module 'fastify' {
  interface FastifyRequest {
    /** The rate-limit bucket of a verified signed bot, when Web Bot Auth recognised one. */
    botKey?: string;
    /** The whole-service limit left to this route's handler (`config.clientLimitInHandler`), until taken. */
    clientLimit?: ClientLimit;
  }
  interface FastifyContextConfig {
    /**
     * The handler passes `request.clientLimit` to the query service, which takes it in its one
     * round trip to Redis (limits/client-limit.ts); honoured only when `deferToHandlers` is on.
     */
    clientLimitInHandler?: boolean;
  }
}

export interface IpLimitOptions {
  /** Leave the limit to the handlers of routes that ask for it (true when queries take it with Redis). */
  deferToHandlers: boolean;
}

export function registerIpLimit(app: FastifyInstance, limiter: RateLimiter, ipRatePerSecond: number, metrics: Metrics, options: IpLimitOptions): void {
  if (ipRatePerSecond <= 0) return;
  const refused = (decision: LimitDecision) => metrics.rateLimited.inc({ limit: decision.refused?.name ?? 'ip' });
  // Callback form: with the in-process limiter the decision is made at once, and no promise is made for it.
  app.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    if (exempt.has(request.url.split('?')[0] ?? '')) return done();
    // A verified bot is limited by its key's bucket in addition to its IP's, never instead of it.
    const rules = clientRules({ ipRatePerSecond }, { ip: request.ip, botKey: request.botKey });
    if (options.deferToHandlers && request.routeOptions.config?.clientLimitInHandler) {
      request.clientLimit = new ClientLimit({
        rules,
        ratePerSecond: ipRatePerSecond,
        limiter,
        onDecision: (decision) => {
          if (decision.allowed) request.ipLimit = decision;
          else refused(decision);
        },
      });
      return done();
    }
    const decided = (decision: LimitDecision): void => {
      if (decision.allowed) {
        request.ipLimit = decision;
        return done();
      }
      refused(decision);
      // An error, not a reply: the error handler writes the problem with the RateLimit headers, and no later hook runs.
      done(clientRefusal(decision, ipRatePerSecond));
    };
    const decision = limiter.consume(rules);
    if (isPromise(decision)) decision.then(decided, done);
    else decided(decision);
  });
  // Successes report the limit too (product.md §5). Query routes set the combined fields themselves; hijacked streams skip onSend.
  app.addHook('onSend', (request: FastifyRequest, reply, payload, done) => {
    if (request.ipLimit && !reply.hasHeader('ratelimit-policy')) reply.headers(rateLimitHeaders(request.ipLimit));
    done(null, payload);
  });
}
