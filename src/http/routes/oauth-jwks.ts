/**
 * `GET /oauth/jwks`: the public keys that sign our access tokens — the active
 * one and retired ones still within their grace period. Cached briefly, so a
 * rotation reaches verifiers within minutes.
 */
import type { OAuthKeys } from '../../identity/oauth/signing-keys.js';
import type { App } from '../types.js';

export function oauthJwksRoutes(app: App, keys: OAuthKeys): void {
  app.get('/oauth/jwks', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('application/jwk-set+json')
      .header('access-control-allow-origin', '*')
      .header('cache-control', 'public, max-age=300')
      .send(await keys.jwks()),
  );
}
