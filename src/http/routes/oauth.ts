/**
 * Everything of agent identity over HTTP, in one place for app.ts: the OAuth
 * JSON endpoints (RFC 6749 error bodies, no-store, open CORS), the consent
 * and claim pages, the JWKS and the discovery documents.
 */
import type { Skill } from '../../agents/skills/index.js';
import type { OAuth } from '../../identity/oauth/oauth.js';
import type { SignInService } from '../../identity/sign-in-service.js';
import { oauthEndpoints } from '../plugins/oauth-endpoints.js';
import type { App } from '../types.js';
import { claimPageRoutes } from './claim-page.js';
import { discoveryRoutes, type LinksetEntry } from './discovery.js';
import { oauthAuthorizeRoutes } from './oauth-authorize.js';
import { oauthClaimRoutes } from './oauth-claim.js';
import { oauthJwksRoutes } from './oauth-jwks.js';
import { oauthRegisterRoutes } from './oauth-register.js';
import { oauthRevokeIntrospectRoutes } from './oauth-revoke-introspect.js';
import { oauthTokenRoutes } from './oauth-token.js';

export interface OAuthRouteOptions {
  publicUrl: string;
  secureCookies: boolean;
  skills: Skill[];
  catalogEntries?: LinksetEntry[];
}

export async function oauthRoutes(app: App, oauth: OAuth, signIn: SignInService, options: OAuthRouteOptions): Promise<void> {
  const { publicUrl, secureCookies } = options;
  await oauthEndpoints(app, ['/oauth/register', '/oauth/claim', '/oauth/token', '/oauth/revoke', '/oauth/introspect'], (scope) => {
    oauthRegisterRoutes(scope, oauth.registration, oauth.bearer, oauth.resources);
    oauthClaimRoutes(scope, oauth.claims);
    oauthTokenRoutes(scope, oauth.tokens);
    oauthRevokeIntrospectRoutes(scope, oauth.inspector);
  });
  await oauthAuthorizeRoutes(app, oauth.authorization, signIn, { publicUrl, secureCookies });
  await claimPageRoutes(app, oauth.claims, signIn, { publicUrl, secureCookies });
  oauthJwksRoutes(app, oauth.keys);
  discoveryRoutes(app, {
    publicUrl,
    resources: oauth.resources,
    skills: options.skills,
    ...(options.catalogEntries ? { catalogEntries: options.catalogEntries } : {}),
  });
}
