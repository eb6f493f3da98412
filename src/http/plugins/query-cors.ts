/**
 * CORS for the query endpoints (product.md §5). Browsers preflight them
 * (JSON body, X-API-Key header), and a preflight carries only an Origin — no
 * key — so it is granted when the origin is on the whitelist of some key;
 * the real request is then checked against its own key's whitelist. Other
 * origins get no CORS headers at all. Responses vary by Origin.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeyStore } from '../../ports/storage.js';
import { callerOrigin, candidatePatterns } from '../../knowledge/keys/domains.js';
import type { App } from '../types.js';

export const queryPaths = ['/api/v1/query', '/api/v1/query/stream', '/api/v1/search', '/api/v1/feedback'];

/** CORS headers for an actual (non-preflight) query response from a browser origin. */
export function corsHeadersFor(request: FastifyRequest): Record<string, string> {
  const origin = request.headers.origin;
  const headers: Record<string, string> = { vary: 'Origin' };
  if (origin && callerOrigin(origin, undefined).kind === 'browser') {
    headers['access-control-allow-origin'] = origin;
    headers['access-control-expose-headers'] = 'X-Request-Id, RateLimit, RateLimit-Policy, Retry-After';
  }
  return headers;
}

export function queryCorsRoutes(app: App, keys: KeyStore): void {
  for (const path of queryPaths) {
    app.options(path, { schema: { hide: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
      reply.header('vary', 'Origin');
      const caller = callerOrigin(request.headers.origin, undefined);
      if (caller.kind !== 'browser' || !(await keys.anyKeyAllows(candidatePatterns(caller.host)))) {
        return reply.code(403).send();
      }
      return reply
        .code(204)
        .header('access-control-allow-origin', caller.origin)
        .header('access-control-allow-methods', 'POST, OPTIONS')
        .header('access-control-allow-headers', 'Content-Type, X-API-Key, Last-Event-ID')
        .header('access-control-max-age', '600')
        .send();
    });
  }
}
