/**
 * `POST /oauth/register`: agent registration (identity_type) or RFC 7591
 * dynamic client registration; 201 either way. An `Authorization: Bearer`
 * access token or account key with kb:write, if sent, makes the registered
 * client act for that account (RFC 7591 §3 initial access token). Anonymous
 * registrations are limited per client address (429 slow_down, Retry-After).
 */
import type { BearerAuthenticator } from '../../identity/oauth/bearer.js';
import { OAuthError } from '../../identity/oauth/errors.js';
import type { RegistrationService } from '../../identity/oauth/registration-service.js';
import type { Resources } from '../../identity/oauth/scopes.js';
import { bearerAuth, type Refusal } from '../bearer-auth.js';
import type { App } from '../types.js';

/** An OAuth endpoint answers RFC 6749 bodies: the refusal becomes an OAuthError with the same status and challenge. */
function oauthRefusal(_reply: unknown, refusal: Refusal): never {
  throw new OAuthError(refusal.error === 'invalid_request' ? 'invalid_request' : 'invalid_token', refusal.description, refusal.status, {
    'www-authenticate': refusal.challenge,
  });
}

export function oauthRegisterRoutes(app: App, registration: RegistrationService, bearer: BearerAuthenticator, resources: Resources): void {
  // The token may be for any of our APIs; the challenge names the service-wide protected-resource document.
  const initialAccessToken = bearerAuth({
    publicUrl: resources.service,
    resource: resources.service,
    audiences: resources.all,
    authenticator: bearer,
    scopes: ['kb:write'],
    optional: true,
    refuse: oauthRefusal,
  });

  app.post('/oauth/register', { onRequest: initialAccessToken, schema: { hide: true } }, async (request, reply) => {
    const response = await registration.register(request.body, request.principal?.accountId, { ip: request.ip });
    return reply.code(201).send(response);
  });
}
