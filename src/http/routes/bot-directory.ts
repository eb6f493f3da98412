/**
 * The service's own HTTP Message Signatures Directory (product.md §1,
 * standards.md §6): `GET /.well-known/http-message-signatures-directory` →
 * JWKS as `application/http-message-signatures-directory+json`, with
 * `Content-Digest`, one binding response signature per key, CORS `*` and a
 * five-minute cache lifetime.
 */
import type { FastifyInstance } from 'fastify';
import type { OwnDirectory } from '../../identity/web-bot-auth/index.js';
import { DIRECTORY_PATH } from '../../identity/web-bot-auth/signature-agent.js';

export function botDirectoryRoutes(app: FastifyInstance, directory: OwnDirectory): void {
  app.get(DIRECTORY_PATH, { schema: { hide: true } }, async (_request, reply) => {
    const { body, headers } = await directory.response();
    // Bytes, so Fastify adds no `charset` parameter: the media type is exactly the registered one (JSON is UTF-8).
    return reply.headers(headers).send(Buffer.from(body, 'utf8'));
  });
}
