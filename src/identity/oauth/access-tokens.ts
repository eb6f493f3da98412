/**
 * RFC 9068 JWT access tokens: header `typ: at+jwt`, claims `iss` (our issuer),
 * `sub` (account id), `aud` (the resource or resources, RFC 8707),
 * `client_id`, `scope`, `jti`, `iat`, `exp` (OAUTH_ACCESS_TOKEN_SECONDS,
 * 15 minutes by default) and `sid` — the grant
 * they were issued from, so revoking a grant (revocation, refresh-token or
 * code reuse) kills its access tokens too. Verification checks the signature,
 * `typ`, issuer, audience, expiry, and that the grant still stands; the
 * account acting is the grant's (which follows an adoption, see ClaimService).
 * A token must also look like one we issue: `iat` and `exp` present, `iat`
 * not in the future and `exp − iat` no longer than our lifetime (plus the
 * skew). We only ever mint tokens of the configured lifetime, so a longer one carrying our
 * signature means a leaked key or a bug; refusing it keeps such a token from
 * working for years (docs/security.md §8).
 */
import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { OAuthStore } from '../../ports/storage.js';
import type { Grant } from './model.js';
import { type OAuthKeys, signingAlg } from './signing-keys.js';

/** OAUTH_ACCESS_TOKEN_SECONDS' default: 15 minutes. */
export const defaultAccessTokenLifetimeSeconds = 900;
/** Clock skew tolerated between instances, in seconds. */
const skewSeconds = 5;
const jwtShape = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export interface VerifiedAccessToken {
  accountId: string;
  clientId: string;
  scope: string;
  audience: string[];
  grantId: string;
  /** The grant's recorded last use (grant-usage.ts), read with it. */
  grantLastUsedAt: string | undefined;
  jti: string;
  issuedAt: number;
  /** Seconds since the epoch. */
  expiresAt: number;
}

export class AccessTokens {
  constructor(
    private readonly keys: OAuthKeys,
    private readonly issuer: string,
    private readonly store: Pick<OAuthStore, 'getGrant'>,
    private readonly now: () => Date = () => new Date(),
    /** How long an access token lives, in seconds (OAUTH_ACCESS_TOKEN_SECONDS). */
    readonly lifetimeSeconds: number = defaultAccessTokenLifetimeSeconds,
  ) {}

  async issue(grant: Grant, audience: string[], scope: string): Promise<{ token: string; expiresIn: number }> {
    const { kid, key } = await this.keys.signer();
    const iat = Math.floor(this.now().getTime() / 1000);
    const token = await new SignJWT({ client_id: grant.clientId, scope, sid: grant.grantId })
      .setProtectedHeader({ alg: signingAlg, typ: 'at+jwt', kid })
      .setIssuer(this.issuer)
      .setSubject(grant.accountId)
      .setAudience(audience.length === 1 ? (audience[0] as string) : audience)
      .setJti(randomBytes(16).toString('base64url'))
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.lifetimeSeconds)
      .sign(key);
    return { token, expiresIn: this.lifetimeSeconds };
  }

  /**
   * The token's facts if it is ours, valid now, meant for `audience` and its
   * grant stands; undefined otherwise. Without `audience` (introspection) any of ours is accepted.
   */
  async verify(token: string, audience: string | undefined): Promise<VerifiedAccessToken | undefined> {
    if (token.length > 4096 || !jwtShape.test(token)) return undefined;
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, async (header) => (await this.keys.verificationKey(header.kid)) ?? Promise.reject(new errors.JWKSNoMatchingKey()), {
        issuer: this.issuer,
        ...(audience === undefined ? {} : { audience }),
        typ: 'at+jwt',
        algorithms: [signingAlg],
        clockTolerance: skewSeconds,
        currentDate: this.now(),
        requiredClaims: ['sub', 'jti', 'iat', 'exp', 'client_id', 'sid'],
      }));
    } catch {
      return undefined;
    }
    const { sid, client_id: clientId, scope, jti, iat, exp, aud } = payload;
    if (typeof sid !== 'string' || typeof clientId !== 'string' || typeof jti !== 'string') return undefined;
    if (!withinLifetime(iat, exp, this.now().getTime() / 1000, this.lifetimeSeconds)) return undefined;
    const grant = await this.store.getGrant(sid);
    if (!grant || grant.revokedAt !== null || grant.clientId !== clientId) return undefined;
    return {
      accountId: grant.accountId,
      clientId,
      scope: typeof scope === 'string' ? scope : '',
      audience: Array.isArray(aud) ? aud.map(String) : [String(aud)],
      grantId: sid,
      grantLastUsedAt: grant.lastUsedAt,
      jti,
      issuedAt: Number(iat),
      expiresAt: Number(exp),
    };
  }
}

/** `iat` and `exp` as this server sets them: numbers, `iat` not ahead of now and `exp − iat` at most `lifetimeSeconds`, each give or take the skew. */
function withinLifetime(iat: unknown, exp: unknown, nowSeconds: number, lifetimeSeconds: number): boolean {
  if (typeof iat !== 'number' || typeof exp !== 'number' || !Number.isFinite(iat) || !Number.isFinite(exp)) return false;
  return iat <= nowSeconds + skewSeconds && exp > iat && exp - iat <= lifetimeSeconds + skewSeconds;
}
