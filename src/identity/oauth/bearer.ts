/**
 * Resolves `Authorization: Bearer` credentials for our protected resources:
 * RFC 9068 access tokens whose `aud` names the resource, and account API keys
 * (`gw_acct_…`) whose grant includes the resource. Parsing the header, the
 * challenges and scope checks are the HTTP layer's (`src/http/bearer-auth.ts`).
 */
import type { OAuthStore } from '../../ports/storage.js';
import { hashSecret } from '../../secrets.js';
import type { AccessTokens } from './access-tokens.js';
import { looksLikeAccountKey } from './credentials.js';
import type { GrantUsage } from './grant-usage.js';

export interface BearerIdentity {
  accountId: string;
  clientId: string;
  /** The granted scope items (e.g. `kb:read`, `mcp`). */
  scopes: string[];
  kind: 'access_token' | 'api_key';
  /** Seconds since the epoch; account keys do not expire. */
  expiresAt: number | undefined;
  grantId: string;
}

export class BearerAuthenticator {
  constructor(
    private readonly tokens: AccessTokens,
    private readonly store: Pick<OAuthStore, 'findAccountKey' | 'getGrant'>,
    /** Records when each grant was last used (for the person's connected agents); none: not recorded. */
    private readonly usage?: GrantUsage,
  ) {}

  async authenticate(credential: string, resource: string): Promise<BearerIdentity | undefined> {
    if (looksLikeAccountKey(credential)) {
      const key = await this.store.findAccountKey(hashSecret(credential));
      const grant = key ? await this.store.getGrant(key.grantId) : undefined;
      if (!grant || grant.revokedAt !== null || !grant.resources.includes(resource)) return undefined;
      await this.usage?.note(grant);
      return {
        accountId: grant.accountId,
        clientId: grant.clientId,
        scopes: grant.scope.split(' '),
        kind: 'api_key',
        expiresAt: undefined,
        grantId: grant.grantId,
      };
    }
    const token = await this.tokens.verify(credential, resource);
    if (!token) return undefined;
    await this.usage?.note({ grantId: token.grantId, lastUsedAt: token.grantLastUsedAt });
    return {
      accountId: token.accountId,
      clientId: token.clientId,
      scopes: token.scope.split(' ').filter(Boolean),
      kind: 'access_token',
      expiresAt: token.expiresAt,
      grantId: token.grantId,
    };
  }
}
