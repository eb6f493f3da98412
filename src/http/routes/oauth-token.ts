/** `POST /oauth/token` (form-encoded): every grant of TokenService. */
import type { TokenService } from '../../identity/oauth/token-service.js';
import { formFields } from '../form-body.js';
import type { App } from '../types.js';

export function oauthTokenRoutes(app: App, tokens: TokenService): void {
  app.post('/oauth/token', { schema: { hide: true } }, async (request) => {
    const { fields, resources } = formFields(request.body);
    return tokens.exchange({ authorization: request.headers.authorization, fields, resources });
  });
}
