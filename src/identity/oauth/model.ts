/**
 * The OAuth side of identity (product.md §6, standards.md §2): clients,
 * agent claims, authorization codes, grants with their refresh tokens and
 * account API keys. Every secret (client secret, claim id, human claim code,
 * authorization code, refresh token, account key) is stored only as SHA-256.
 */

/**
 * `agent`: made by `POST /oauth/register` with an identity_type; `dcr`: an RFC 7591 registration;
 * `cimd`: known from its client ID metadata document (its id is the document's URL).
 */
export type ClientKind = 'agent' | 'dcr' | 'cimd';

export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

/** RFC 7591 §2 client metadata as registered (and echoed back). */
export interface ClientMetadata {
  redirect_uris: string[];
  token_endpoint_auth_method: TokenEndpointAuthMethod;
  grant_types: string[];
  response_types: string[];
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  tos_uri?: string;
  policy_uri?: string;
  scope?: string;
  contacts?: string[];
  software_id?: string;
  software_version?: string;
  application_type?: string;
  /** Not RFC 7591: the APIs an agent registered with an ID-JAG may get tokens for (the assertion's `resource`). */
  resources?: string[];
}

export interface OAuthClient {
  clientId: string;
  /** SHA-256 of the client secret; null for public clients. */
  secretHash: string | null;
  /**
   * The account the client acts for: an agent's own account, or the account
   * that registered a DCR client with an initial access token. Null for public
   * DCR clients (people authorize them) and for an e-mail agent not yet confirmed.
   */
  accountId: string | null;
  kind: ClientKind;
  metadata: ClientMetadata;
  createdAt: string;
}

export type ClaimKind = 'anonymous' | 'verified_email' | 'id_jag';

export interface Claim {
  /** SHA-256 of the agent's secret claim_id. */
  claimHash: string;
  /** SHA-256 of the normalised human code shown in claim_uri. */
  codeHash: string;
  clientId: string;
  kind: ClaimKind;
  /** The address a verified_email registration must confirm. */
  email: string | null;
  /** SHA-256 of `claimHash:code` for the e-mailed one-time confirmation code. */
  verificationHash: string | null;
  attempts: number;
  confirmedAt: string | null;
  claimedAt: string | null;
  /** When a signed-in person took ownership of an anonymous agent's account. */
  adoptedAt: string | null;
  expiresAt: string;
  createdAt: string;
}

export interface AuthorizationCode {
  codeHash: string;
  clientId: string;
  accountId: string;
  redirectUri: string;
  /** RFC 7636 S256 challenge. */
  codeChallenge: string;
  scope: string;
  resources: string[];
  expiresAt: string;
  usedAt: string | null;
  /** The grant issued from the code, revoked if the code is presented again. */
  grantId: string | null;
  createdAt: string;
}

export type GrantKind = 'authorization_code' | 'claim' | 'client_credentials' | 'jwt_bearer';

/**
 * One authorization: everything issued from it (access tokens carry its id in
 * `sid`, refresh tokens and account keys reference it) dies with it.
 */
export interface Grant {
  grantId: string;
  clientId: string;
  accountId: string;
  kind: GrantKind;
  scope: string;
  resources: string[];
  createdAt: string;
  revokedAt: string | null;
  /** When a credential of the grant was last presented, to within a minute (grant-usage.ts); absent until then. */
  lastUsedAt?: string;
}

export interface RefreshToken {
  tokenHash: string;
  grantId: string;
  expiresAt: string;
  /** Set when the token was exchanged; presenting it again revokes the grant (reuse detection). */
  rotatedAt: string | null;
  createdAt: string;
}

export interface AccountKey {
  keyHash: string;
  keyId: string;
  grantId: string;
  /** The first characters, for display. */
  prefix: string;
  createdAt: string;
}

export interface AgentRegistration {
  /** A new account with no e-mail, created with the client (anonymous agents). */
  newAccount?: { accountId: string; createdAt: string };
  client: OAuthClient;
  claim: Claim;
}

/**
 * What an adopted anonymous agent keeps (chosen by the adopting person on the claim page):
 * `own` — only the knowledge bases it made, before and after adoption (the default);
 * `account` — the person's whole account.
 */
export type AgentAccess = 'own' | 'account';

/** `repeated`: the token was exchanged moments ago and its successor is handed out again (the grace window). */
/** `successor`: the index, in the chain passed to `rotateRefreshToken`, of the refresh token to hand out. */
export type RotateOutcome = { kind: 'rotated'; grant: Grant; successor: number; repeated?: true } | { kind: 'reused' } | { kind: 'invalid' };
