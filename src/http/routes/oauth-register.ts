/**
 * `POST /oauth/register`: agent registration (identity_type) or RFC 7591
 * dynamic client registration; 201 either way. An `Authorization: Bearer`
 * access token or account key with kb:write, if sent, makes the registered
 * client act for that account (RFC 7591 §3 initial access token).
 */
import type { BearerAuthenticator } from '../../identity/oauth/bearer.js';
import { OAuthError } from '../../identity/oauth/errors.js';
import type { RegistrationService } from '../../identity/oauth/registration-service.js';
import type { Resources } from '../../identity/oauth/scopes.js';
import type { App } from '../types.js';

export function oauthRegisterRoutes(app: App, registration: RegistrationService, bearer: BearerAuthenticator, resources: Resources): void {
  async function initialAccount(authorization: string | undefined): Promise<string | undefined> {
    if (authorization === undefined) return undefined;
    const challenge = { 'www-authenticate': 'Bearer error="invalid_token"' };
    const credential = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    if (!credential) throw new OAuthError('invalid_token', 'The Authorization header must be "Bearer <token>".', 401, challenge);
    for (const resource of resources.all) {
      const identity = await bearer.authenticate(credential, resource);
      if (!identity) continue;
      if (!identity.scopes.includes('kb:write') && !identity.scopes.includes('mcp')) {
        throw new OAuthError('invalid_token', 'The initial access token needs the kb:write scope.', 403, {
          'www-authenticate': 'Bearer error="insufficient_scope", scope="kb:write"',
        });
      }
      return identity.accountId;
    }
    throw new OAuthError('invalid_token', 'The initial access token is invalid, expired or revoked.', 401, challenge);
  }

  app.post('/oauth/register', { schema: { hide: true } }, async (request, reply) => {
    const response = await registration.register(request.body, await initialAccount(request.headers.authorization));
    return reply.code(201).send(response);
  });
}
