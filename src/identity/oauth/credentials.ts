/**
 * Issues what a grant gives: access tokens, opaque refresh tokens
 * (`gw_rt_…`, 30 days, rotated on use) and account API keys (`gw_acct_…`,
 * sent as `Authorization: Bearer`, valid until revoked). Refresh tokens and
 * keys are 256-bit random values stored only as SHA-256.
 */
import { randomBase62 } from '../../ids.js';
import { hashSecret } from '../../secrets.js';
import type { AccessTokens } from './access-tokens.js';
import type { AccountKey, Grant, GrantKind, RefreshToken } from './model.js';

export const refreshTokenLifetimeMs = 30 * 86_400_000;
export const accountKeyPrefix = 'gw_acct_';
const accountKeyShape = /^gw_acct_[0-9A-Za-z]{43}$/;
const refreshShape = /^gw_rt_[0-9A-Za-z]{43}$/;

export const looksLikeAccountKey = (value: string): boolean => accountKeyShape.test(value);
export const looksLikeRefreshToken = (value: string): boolean => refreshShape.test(value);

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

export class Credentials {
  constructor(
    private readonly tokens: AccessTokens,
    private readonly now: () => Date = () => new Date(),
  ) {}

  grant(kind: GrantKind, clientId: string, accountId: string, scope: string, resources: string[]): Grant {
    return {
      grantId: `grt_${randomBase62(128)}`,
      clientId,
      accountId,
      kind,
      scope,
      resources,
      createdAt: this.now().toISOString(),
      revokedAt: null,
    };
  }

  refreshToken(grantId: string): { token: string; row: RefreshToken } {
    const token = `gw_rt_${randomBase62(256)}`;
    const at = this.now();
    return {
      token,
      row: {
        tokenHash: hashSecret(token),
        grantId,
        expiresAt: new Date(at.getTime() + refreshTokenLifetimeMs).toISOString(),
        rotatedAt: null,
        createdAt: at.toISOString(),
      },
    };
  }

  accountKey(grantId: string): { key: string; row: AccountKey } {
    const key = `${accountKeyPrefix}${randomBase62(256)}`;
    return {
      key,
      row: {
        keyHash: hashSecret(key),
        keyId: `akey_${randomBase62(96)}`,
        grantId,
        prefix: key.slice(0, accountKeyPrefix.length + 4),
        createdAt: this.now().toISOString(),
      },
    };
  }

  /** The RFC 6749 §5.1 token response for a grant. */
  async tokenResponse(grant: Grant, audience: string[], scope: string, refreshToken?: string): Promise<TokenResponse> {
    const { token, expiresIn } = await this.tokens.issue(grant, audience, scope);
    return { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope, ...(refreshToken ? { refresh_token: refreshToken } : {}) };
  }
}
