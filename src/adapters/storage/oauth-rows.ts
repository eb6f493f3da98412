/** Row ↔ entity mapping of the OAuth tables, shared by both SQL stores (see rows.ts for the conventions). */
import type {
  AccountKey,
  AuthorizationCode,
  Claim,
  ClaimKind,
  ClientKind,
  ClientMetadata,
  Grant,
  GrantKind,
  OAuthClient,
  RefreshToken,
} from '../../identity/oauth/model.js';
import type { Row } from './rows.js';

const text = (value: unknown): string => (value instanceof Date ? value.toISOString() : String(value));
const nullableText = (value: unknown): string | null => (value === null || value === undefined ? null : text(value));
const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

export function toClient(row: Row): OAuthClient {
  return {
    clientId: text(row.client_id),
    secretHash: nullableText(row.secret_hash),
    accountId: nullableText(row.account_id),
    kind: text(row.kind) as ClientKind,
    metadata: json<ClientMetadata>(row.metadata),
    createdAt: text(row.created_at),
  };
}

export function toClaim(row: Row): Claim {
  return {
    claimHash: text(row.claim_hash),
    codeHash: text(row.code_hash),
    clientId: text(row.client_id),
    kind: text(row.kind) as ClaimKind,
    email: nullableText(row.email),
    verificationHash: nullableText(row.verification_hash),
    attempts: Number(row.attempts),
    confirmedAt: nullableText(row.confirmed_at),
    claimedAt: nullableText(row.claimed_at),
    adoptedAt: nullableText(row.adopted_at),
    expiresAt: text(row.expires_at),
    createdAt: text(row.created_at),
  };
}

export function toAuthorizationCode(row: Row): AuthorizationCode {
  return {
    codeHash: text(row.code_hash),
    clientId: text(row.client_id),
    accountId: text(row.account_id),
    redirectUri: text(row.redirect_uri),
    codeChallenge: text(row.code_challenge),
    scope: text(row.scope),
    resources: json<string[]>(row.resources),
    expiresAt: text(row.expires_at),
    usedAt: nullableText(row.used_at),
    grantId: nullableText(row.grant_id),
    createdAt: text(row.created_at),
  };
}

export function toGrant(row: Row): Grant {
  return {
    grantId: text(row.grant_id),
    clientId: text(row.client_id),
    accountId: text(row.account_id),
    kind: text(row.kind) as GrantKind,
    scope: text(row.scope),
    resources: json<string[]>(row.resources),
    createdAt: text(row.created_at),
    revokedAt: nullableText(row.revoked_at),
    ...(row.last_used_at === null || row.last_used_at === undefined ? {} : { lastUsedAt: text(row.last_used_at) }),
  };
}

export function toRefreshToken(row: Row): RefreshToken {
  return {
    tokenHash: text(row.token_hash),
    grantId: text(row.grant_id),
    expiresAt: text(row.expires_at),
    rotatedAt: nullableText(row.rotated_at),
    createdAt: text(row.created_at),
  };
}

export function toAccountKey(row: Row): AccountKey {
  return { keyHash: text(row.key_hash), keyId: text(row.key_id), grantId: text(row.grant_id), prefix: text(row.prefix), createdAt: text(row.created_at) };
}
