/**
 * The scope the OAuth JSON endpoints live in: form bodies accepted, every
 * answer `Cache-Control: no-store` (RFC 6749 §5.1), CORS open to any origin
 * without credentials (browser-based MCP clients register and fetch tokens
 * from their own pages), and errors as RFC 6749 `{error, error_description}`
 * bodies instead of problem documents. The whole-service limit's 429 is one
 * too, `{"error":"temporarily_unavailable"}` with Retry-After and the RateLimit
 * fields, so OAuth libraries read it as an OAuth error (the MCP SDK keeps its
 * tokens on `temporarily_unavailable`, where an unknown body would log it out).
 * Other cross-cutting refusals raised before the route (a bad Web Bot Auth
 * signature) keep their problem documents: they are passed on to the
 * application's error handler.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { isDomainError } from '../../errors.js';
import { OAuthError } from '../../identity/oauth/errors.js';
import { rateLimitHeaders } from '../../limits/headers.js';
import { combineDecisions } from '../../limits/rules.js';
import type { LimitDecision } from '../../ports/rate-limiter.js';
import { addFormParser } from '../form-body.js';
import type { App } from '../types.js';

export const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };
const endpointHeaders = {
  ...noStore,
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'WWW-Authenticate, Retry-After, RateLimit, RateLimit-Policy, X-Request-Id',
};

export async function oauthEndpoints(app: App, paths: string[], routes: (scope: App) => void): Promise<void> {
  await app.register(async (scope) => {
    addFormParser(scope as unknown as FastifyInstance);
    scope.addHook('onRequest', async (_request, reply) => {
      reply.headers(endpointHeaders);
    });
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof OAuthError) return reply.code(error.status).headers(error.headers).send(error.toJSON());
      if (isDomainError(error) && error.code === 'rate_limited' && error.context?.rateLimit) {
        const decisions = [request.ipLimit, error.context.rateLimit as LimitDecision].filter((d): d is LimitDecision => d !== undefined);
        // Refused before this scope's own onRequest hook ran: its headers are set here.
        return reply
          .code(429)
          .headers({ ...endpointHeaders, ...rateLimitHeaders(combineDecisions(...decisions)) })
          .send({ error: 'temporarily_unavailable', error_description: error.message });
      }
      if (isDomainError(error)) throw error;
      const status = error.statusCode ?? 500;
      if (status < 500) {
        const description = status === 413 ? 'The body is too large.' : status === 415 ? 'Unsupported content type.' : 'The request could not be read.';
        return reply.code(status === 413 ? 413 : 400).send({ error: 'invalid_request', error_description: description });
      }
      request.log.error({ err: error }, 'oauth endpoint failed');
      return reply.code(500).send({ error: 'server_error', error_description: 'Something went wrong on our side. Quote the X-Request-Id when you report it.' });
    });
    for (const path of paths) {
      scope.options(path, { schema: { hide: true } }, async (_request, reply) =>
        reply
          .code(204)
          .header('access-control-allow-methods', 'POST, OPTIONS')
          .header('access-control-allow-headers', 'Authorization, Content-Type')
          .header('access-control-max-age', '600')
          .send(),
      );
    }
    routes(scope);
  });
}
