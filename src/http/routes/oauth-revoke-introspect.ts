/** `POST /oauth/revoke` (RFC 7009) and `POST /oauth/introspect` (RFC 7662), form-encoded, client-authenticated. */
import type { TokenInspector } from '../../identity/oauth/token-inspection.js';
import { formFields } from '../form-body.js';
import type { App } from '../types.js';

export function oauthRevokeIntrospectRoutes(app: App, inspector: TokenInspector): void {
  app.post('/oauth/revoke', { schema: { hide: true } }, async (request, reply) => {
    await inspector.revoke(request.headers.authorization, formFields(request.body).fields);
    return reply.code(200).send();
  });

  app.post('/oauth/introspect', { schema: { hide: true } }, async (request) =>
    inspector.introspect(request.headers.authorization, formFields(request.body).fields),
  );
}
