/**
 * Issues what a grant gives: access tokens, opaque refresh tokens
 * (`gw_rt_…`, 30 days, rotated on use) and account API keys (`gw_acct_…`,
 * sent as `Authorization: Bearer`, valid until revoked). Refresh tokens and
 * keys are 256-bit values stored only as SHA-256: a grant's first refresh
 * token is random; each successor is HMAC-SHA-256 of the token it replaces
 * under a key derived from SECRET_KEY, so a retried exchange of the same
 * token (the grace window, docs/agents.md) yields the same successor on every
 * instance without the successor ever being stored in the clear.
 */
import { createHmac } from 'node:crypto';
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

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 43 base62 digits hold any 256-bit value (62^43 > 2^256), the length of randomBase62(256). */
function base62Of(bytes: Buffer, digits = 43): string {
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  for (let i = 0; i < digits; i++) {
    out = base62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

export class Credentials {
  /** `successorKey`: the HMAC key for refresh-token successors (deriveKey(SECRET_KEY, …), oauth.ts). */
  constructor(
    private readonly tokens: AccessTokens,
    private readonly successorKey: Buffer,
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

  /** A grant's first refresh token (random). */
  refreshToken(grantId: string): { token: string; row: RefreshToken } {
    return this.refreshRow(`gw_rt_${randomBase62(256)}`, grantId);
  }

  /** The token that replaces `presented` when it is exchanged: the same for every exchange of `presented`. */
  successorRefreshToken(presented: string, grantId: string): { token: string; row: RefreshToken } {
    const mac = createHmac('sha256', this.successorKey).update(presented, 'utf8').digest();
    return this.refreshRow(`gw_rt_${base62Of(mac)}`, grantId);
  }

  private refreshRow(token: string, grantId: string): { token: string; row: RefreshToken } {
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
