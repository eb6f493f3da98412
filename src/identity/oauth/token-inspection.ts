/**
 * Token revocation (RFC 7009) and introspection (RFC 7662). Revoking any
 * credential — access token, refresh token or account key — revokes its
 * whole grant (RFC 7009 §2.1 allows revoking related tokens), since every
 * credential of a grant is checked against it. Only the client a token was
 * issued to may revoke it. Introspection needs a confidential client, and
 * shows a token as active only to the client it was issued to or to a client
 * of the same account; everything else is exactly `{"active": false}`.
 */
import type { OAuthStore } from '../../ports/storage.js';
import { hashSecret } from '../../secrets.js';
import type { AccessTokens } from './access-tokens.js';
import type { ClientAuthenticator, FormFields } from './client-auth.js';
import { looksLikeAccountKey, looksLikeRefreshToken } from './credentials.js';
import { invalidRequest, OAuthError } from './errors.js';
import type { Grant } from './model.js';

interface Resolved {
  grant: Grant;
  kind: 'access_token' | 'refresh_token' | 'api_key';
  audience: string[];
  scope: string;
  issuedAt: number | undefined;
  expiresAt: number | undefined;
  jti?: string;
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

export class TokenInspector {
  constructor(
    private readonly store: OAuthStore,
    private readonly tokens: AccessTokens,
    private readonly clients: ClientAuthenticator,
    private readonly issuer: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private async resolve(token: string): Promise<Resolved | undefined> {
    if (looksLikeAccountKey(token)) {
      const key = await this.store.findAccountKey(hashSecret(token));
      const grant = key ? await this.store.getGrant(key.grantId) : undefined;
      if (!key || !grant || grant.revokedAt !== null) return undefined;
      return { grant, kind: 'api_key', audience: grant.resources, scope: grant.scope, issuedAt: seconds(key.createdAt), expiresAt: undefined };
    }
    if (looksLikeRefreshToken(token)) {
      const stored = await this.store.findRefreshToken(hashSecret(token));
      const grant = stored ? await this.store.getGrant(stored.grantId) : undefined;
      if (!stored || !grant || grant.revokedAt !== null || stored.rotatedAt !== null || Date.parse(stored.expiresAt) <= this.now().getTime()) return undefined;
      return {
        grant,
        kind: 'refresh_token',
        audience: grant.resources,
        scope: grant.scope,
        issuedAt: seconds(stored.createdAt),
        expiresAt: seconds(stored.expiresAt),
      };
    }
    const verified = await this.tokens.verify(token, undefined);
    const grant = verified ? await this.store.getGrant(verified.grantId) : undefined;
    if (!verified || !grant) return undefined;
    return {
      grant,
      kind: 'access_token',
      audience: verified.audience,
      scope: verified.scope,
      issuedAt: verified.issuedAt,
      expiresAt: verified.expiresAt,
      jti: verified.jti,
    };
  }

  async revoke(authorization: string | undefined, fields: FormFields): Promise<void> {
    const caller = await this.clients.require(authorization, fields);
    const token = fields.token;
    if (!token) throw invalidRequest('token is required.');
    const found = token.length <= 4096 ? await this.resolve(token) : undefined;
    if (!found) return; // RFC 7009 §2.2: an invalid or unknown token is not an error.
    if (found.grant.clientId !== caller.client.clientId) throw new OAuthError('unauthorized_client', 'The token was not issued to this client.');
    await this.store.revokeGrant(found.grant.grantId, this.now().toISOString());
  }

  async introspect(authorization: string | undefined, fields: FormFields): Promise<Record<string, unknown>> {
    const caller = await this.clients.require(authorization, fields);
    if (!caller.authenticated) throw new OAuthError('invalid_client', 'Introspection needs a confidential client that authenticates.', 401);
    const token = fields.token;
    if (!token) throw invalidRequest('token is required.');
    const found = token.length <= 4096 ? await this.resolve(token) : undefined;
    const { client } = caller;
    if (!found || (found.grant.clientId !== client.clientId && (client.accountId === null || client.accountId !== found.grant.accountId))) {
      return { active: false };
    }
    return {
      active: true,
      scope: found.scope,
      client_id: found.grant.clientId,
      sub: found.grant.accountId,
      aud: found.audience.length === 1 ? found.audience[0] : found.audience,
      iss: this.issuer,
      ...(found.kind === 'refresh_token' ? {} : { token_type: 'Bearer' }),
      ...(found.issuedAt === undefined ? {} : { iat: found.issuedAt }),
      ...(found.expiresAt === undefined ? {} : { exp: found.expiresAt }),
      ...(found.jti ? { jti: found.jti } : {}),
    };
  }
}
