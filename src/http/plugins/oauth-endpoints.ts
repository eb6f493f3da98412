/**
 * The scope the OAuth JSON endpoints live in: form bodies accepted, every
 * answer `Cache-Control: no-store` (RFC 6749 §5.1), CORS open to any origin
 * without credentials (browser-based MCP clients register and fetch tokens
 * from their own pages), and errors as RFC 6749 `{error, error_description}`
 * bodies instead of problem documents. Cross-cutting refusals raised before
 * the route (the IP limit, a bad Web Bot Auth signature) keep their problem
 * documents: they are passed on to the application's error handler.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { isDomainError } from '../../errors.js';
import { OAuthError } from '../../identity/oauth/errors.js';
import { addFormParser } from '../form-body.js';
import type { App } from '../types.js';

export const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };

export async function oauthEndpoints(app: App, paths: string[], routes: (scope: App) => void): Promise<void> {
  await app.register(async (scope) => {
    addFormParser(scope as unknown as FastifyInstance);
    scope.addHook('onRequest', async (_request, reply) => {
      reply.headers({ ...noStore, 'access-control-allow-origin': '*', 'access-control-expose-headers': 'WWW-Authenticate, Retry-After, RateLimit, RateLimit-Policy, X-Request-Id' });
    });
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof OAuthError) return reply.code(error.status).headers(error.headers).send(error.toJSON());
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
