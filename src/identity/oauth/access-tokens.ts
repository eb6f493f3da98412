/**
 * RFC 9068 JWT access tokens: header `typ: at+jwt`, claims `iss` (our issuer),
 * `sub` (account id), `aud` (the resource or resources, RFC 8707),
 * `client_id`, `scope`, `jti`, `iat`, `exp` (15 minutes) and `sid` — the grant
 * they were issued from, so revoking a grant (revocation, refresh-token or
 * code reuse) kills its access tokens too. Verification checks the signature,
 * `typ`, issuer, audience, expiry, and that the grant still stands; the
 * account acting is the grant's (which follows an adoption, see ClaimService).
 */
import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { OAuthStore } from '../../adapters/storage/port.js';
import type { Grant } from './model.js';
import { type OAuthKeys, signingAlg } from './signing-keys.js';

export const accessTokenLifetimeSeconds = 900;
const jwtShape = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export interface VerifiedAccessToken {
  accountId: string;
  clientId: string;
  scope: string;
  audience: string[];
  grantId: string;
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
      .setExpirationTime(iat + accessTokenLifetimeSeconds)
      .sign(key);
    return { token, expiresIn: accessTokenLifetimeSeconds };
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
        clockTolerance: 5,
        currentDate: this.now(),
        requiredClaims: ['sub', 'jti', 'iat', 'exp', 'client_id', 'sid'],
      }));
    } catch {
      return undefined;
    }
    const { sid, client_id: clientId, scope, jti, iat, exp, aud } = payload;
    if (typeof sid !== 'string' || typeof clientId !== 'string' || typeof jti !== 'string') return undefined;
    const grant = await this.store.getGrant(sid);
    if (!grant || grant.revokedAt !== null || grant.clientId !== clientId) return undefined;
    return {
      accountId: grant.accountId,
      clientId,
      scope: typeof scope === 'string' ? scope : '',
      audience: Array.isArray(aud) ? aud.map(String) : [String(aud)],
      grantId: sid,
      jti,
      issuedAt: Number(iat),
      expiresAt: Number(exp),
    };
  }
}
