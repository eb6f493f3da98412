/** `POST /oauth/claim {claim_id, credential_type?}`: the agent redeems its claim once (see ClaimService). */
import type { ClaimService } from '../../identity/oauth/claim-service.js';
import type { App } from '../types.js';

export function oauthClaimRoutes(app: App, claims: ClaimService): void {
  app.post('/oauth/claim', { schema: { hide: true } }, async (request) => claims.claim(request.body));
}
