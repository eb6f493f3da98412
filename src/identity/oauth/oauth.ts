/**
 * Builds the OAuth authorization server and its resource-side verifier from
 * the store, the mailer and the configuration. The issuer is PUBLIC_URL
 * exactly (standards.md §0); the signing key is created here on first start.
 */
import type { Mailer } from '../../ports/mailer.js';
import type { Store } from '../../ports/storage.js';
import { ConnectedAgentsService } from '../connected-agents/connected-agents-service.js';
import { AccessTokens } from './access-tokens.js';
import type { AnonymousAccountLimit } from './anonymous-account-limit.js';
import { AuthorizationService } from './authorization-service.js';
import { BearerAuthenticator } from './bearer.js';
import { ClaimService } from './claim-service.js';
import { ClientAuthenticator } from './client-auth.js';
import { ClientDirectory } from './client-directory.js';
import { type ClientIdDocumentOptions, ClientIdDocuments } from './client-id-documents.js';
import { deriveKey } from '../../secrets.js';
import { Credentials } from './credentials.js';
import { GrantUsage } from './grant-usage.js';
import { IdJagVerifier } from './id-jag.js';
import { RegistrationService } from './registration-service.js';
import { type Resources, resourcesOf } from './scopes.js';
import { OAuthKeys } from './signing-keys.js';
import { TokenInspector } from './token-inspection.js';
import { TokenService } from './token-service.js';
import type { TrustedIssuer } from './trusted-issuers.js';

export interface OAuth {
  issuer: string;
  resources: Resources;
  keys: OAuthKeys;
  accessTokens: AccessTokens;
  bearer: BearerAuthenticator;
  registration: RegistrationService;
  claims: ClaimService;
  authorization: AuthorizationService;
  tokens: TokenService;
  inspector: TokenInspector;
  /** The signed-in person's connected agents and their revocation (the dashboard's page). */
  connectedAgents: ConnectedAgentsService;
}

export interface OAuthOptions {
  store: Store;
  mailer: Mailer;
  publicUrl: string;
  trustedIssuers: TrustedIssuer[];
  /** Longest ID-JAG lifetime accepted (ID_JAG_MAX_LIFETIME_SECONDS); IdJagVerifier's default when absent. */
  idJagMaxLifetimeSeconds?: number;
  /** Anonymous agent accounts per client address; none: unlimited. */
  anonymousLimit?: AnonymousAccountLimit | undefined;
  /** How Client ID Metadata Documents are fetched (the SSRF guard's policy); default: public https only. */
  clientIdDocuments?: ClientIdDocumentOptions;
  /** SECRET_KEY: refresh-token successors are derived under a key from it (credentials.ts). */
  secretKey: string;
  /** REFRESH_REUSE_GRACE_SECONDS; TokenService's default when absent. */
  refreshReuseGraceSeconds?: number;
  /** OAUTH_ACCESS_TOKEN_SECONDS; 15 minutes when absent. */
  accessTokenSeconds?: number;
  /** OAUTH_REDIRECT_SCHEMES: custom schemes accepted in redirect URIs; client-metadata.ts' default when absent. */
  redirectSchemes?: readonly string[];
  now?: () => Date;
}

export async function createOAuth({
  store,
  mailer,
  publicUrl,
  trustedIssuers,
  idJagMaxLifetimeSeconds,
  anonymousLimit,
  clientIdDocuments = { policy: { allowLoopback: false } },
  secretKey,
  refreshReuseGraceSeconds,
  accessTokenSeconds,
  redirectSchemes,
  now = () => new Date(),
}: OAuthOptions): Promise<OAuth> {
  const issuer = publicUrl;
  const resources = resourcesOf(publicUrl);
  const keys = new OAuthKeys(store.signingKeys, now);
  await keys.ensureKey();
  const accessTokens = new AccessTokens(keys, issuer, store.oauth, now, accessTokenSeconds);
  const credentials = new Credentials(accessTokens, deriveKey(secretKey, 'groundwork refresh-token successor v1'), now);
  // Registered clients, and clients named by the URL of their metadata document.
  const directory = new ClientDirectory(store.oauth, new ClientIdDocuments(store.oauth, { ...clientIdDocuments, ...(redirectSchemes ? { redirectSchemes } : {}) }));
  const clients = new ClientAuthenticator(directory);
  const idJag = new IdJagVerifier(trustedIssuers, issuer, store.oauth, now, idJagMaxLifetimeSeconds);
  return {
    issuer,
    resources,
    keys,
    accessTokens,
    bearer: new BearerAuthenticator(accessTokens, store.oauth, new GrantUsage(store.connectedAgents, now)),
    registration: new RegistrationService(store.oauth, idJag, mailer, publicUrl, now, anonymousLimit, {
      resources,
      ...(redirectSchemes ? { redirectSchemes } : {}),
    }),
    claims: new ClaimService(store.oauth, store.accounts, credentials, resources, now),
    authorization: new AuthorizationService(store.oauth, issuer, resources, now, directory),
    tokens: new TokenService(store.oauth, clients, credentials, idJag, resources, now, {
      ...(refreshReuseGraceSeconds !== undefined ? { refreshReuseGraceSeconds } : {}),
    }),
    inspector: new TokenInspector(store.oauth, accessTokens, clients, issuer, now),
    connectedAgents: new ConnectedAgentsService(store.connectedAgents, now, accessTokens.lifetimeSeconds),
  };
}
