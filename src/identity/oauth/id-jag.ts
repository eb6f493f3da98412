/**
 * Verifies Identity Assertion JWT Authorization Grants
 * (draft-ietf-oauth-identity-assertion-authz-grant-03, standards.md §3):
 * `typ: oauth-id-jag+jwt`; `iss` one of TRUSTED_ID_JAG_ISSUERS and the
 * signature by its keys; `aud` = our issuer; `exp` and `iat` within 60 s of
 * skew; `sub` and `jti` present; and each `jti` accepted once per issuer (kept
 * until `exp` + skew). Every failure is `invalid_grant` with a reason.
 *
 * Lifetime: `exp − iat` may not exceed `maxLifetimeSeconds` (ID_JAG_MAX_LIFETIME_SECONDS,
 * default 300 s), nor `exp` lie further ahead than that plus the skew. The draft sets no
 * normative maximum; its token-exchange response example (§ "Token Exchange" › "Response",
 * standards.md §3) issues ID-JAGs with `expires_in: 300`, and RFC 7523 §3 (item 4) lets the
 * authorization server reject a JWT whose `exp` is unreasonably far in the future. A
 * short cap also bounds how long a jti must be remembered.
 */
import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import type { OAuthStore } from '../../ports/storage.js';
import { invalidGrant } from './errors.js';
import type { TrustedIssuer } from './trusted-issuers.js';

export const skewSeconds = 60;
export const defaultIdJagMaxLifetimeSeconds = 300;
const algorithms = ['EdDSA', 'Ed25519', 'ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];
export const idJagType = 'oauth-id-jag+jwt';
export const idJagTokenType = 'urn:ietf:params:oauth:token-type:id-jag';

export interface IdJagIdentity {
  issuer: string;
  subject: string;
  /** The client at our server the assertion was issued for. */
  clientId: string | undefined;
  scope: string | undefined;
  resources: string[] | undefined;
  email: string | undefined;
  claims: JWTPayload;
}

function describe(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The ID-JAG has expired.';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'The ID-JAG audience (aud) is not this authorization server.';
    if (error.claim === 'typ') return `The ID-JAG must have the JOSE header typ "${idJagType}".`;
    if (error.claim === 'iat') return 'The ID-JAG was issued in the future.';
    if (error.claim === 'nbf') return 'The ID-JAG is not valid yet.';
    return `The ID-JAG claim "${error.claim}" is missing or invalid.`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey)
    return "The ID-JAG signature does not verify with the issuer's keys.";
  if (error instanceof errors.JOSEAlgNotAllowed) return 'The ID-JAG is signed with an algorithm that is not accepted.';
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JOSEError)
    return 'The ID-JAG could not be verified (issuer keys unavailable or token malformed).';
  return 'The ID-JAG could not be verified.';
}

export class IdJagVerifier {
  private readonly keySets = new Map<string, JWTVerifyGetKey>();

  constructor(
    private readonly issuers: TrustedIssuer[],
    private readonly audience: string,
    private readonly replay: Pick<OAuthStore, 'useJti'>,
    private readonly now: () => Date = () => new Date(),
    private readonly maxLifetimeSeconds = defaultIdJagMaxLifetimeSeconds,
  ) {}

  private keySet(trusted: TrustedIssuer): JWTVerifyGetKey {
    let set = this.keySets.get(trusted.issuer);
    if (!set) {
      set = trusted.jwks
        ? createLocalJWKSet(trusted.jwks)
        : createRemoteJWKSet(new URL(trusted.jwksUri as string), { timeoutDuration: 5000, cooldownDuration: 30_000, cacheMaxAge: 600_000 });
      this.keySets.set(trusted.issuer, set);
    }
    return set;
  }

  /**
   * Verifies the assertion; `check` may refuse it (e.g. a client_id mismatch)
   * before its jti is spent. Throws OAuthError `invalid_grant`.
   */
  async verify(assertion: string, check?: (identity: IdJagIdentity) => Promise<void> | void): Promise<IdJagIdentity> {
    let unverified: JWTPayload;
    try {
      unverified = decodeJwt(assertion);
    } catch {
      throw invalidGrant('The assertion is not a JWT.');
    }
    const trusted = this.issuers.find((i) => i.issuer === unverified.iss);
    if (!trusted) throw invalidGrant('The ID-JAG issuer is not trusted by this server.');
    const current = this.now();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(assertion, this.keySet(trusted), {
        issuer: trusted.issuer,
        audience: this.audience,
        typ: idJagType,
        algorithms,
        clockTolerance: skewSeconds,
        currentDate: current,
        requiredClaims: ['sub', 'jti', 'exp', 'iat'],
      }));
    } catch (error) {
      throw invalidGrant(describe(error));
    }
    const nowSeconds = current.getTime() / 1000;
    const iat = payload.iat as number;
    const exp = payload.exp as number;
    if (iat > nowSeconds + skewSeconds) throw invalidGrant('The ID-JAG was issued in the future.');
    if (exp > nowSeconds + this.maxLifetimeSeconds + skewSeconds) {
      throw invalidGrant(`The ID-JAG expires too far in the future (this server accepts at most ${this.maxLifetimeSeconds} s).`);
    }
    if (exp - iat > this.maxLifetimeSeconds) {
      throw invalidGrant(`The ID-JAG lives too long: exp − iat is ${exp - iat} s, this server accepts at most ${this.maxLifetimeSeconds} s.`);
    }
    if (typeof payload.sub !== 'string' || !payload.sub || typeof payload.jti !== 'string' || !payload.jti) {
      throw invalidGrant('The ID-JAG needs string sub and jti claims.');
    }
    const resource = payload.resource;
    const identity: IdJagIdentity = {
      issuer: trusted.issuer,
      subject: payload.sub,
      clientId: typeof payload.client_id === 'string' ? payload.client_id : undefined,
      scope: typeof payload.scope === 'string' ? payload.scope : undefined,
      resources: typeof resource === 'string' ? [resource] : Array.isArray(resource) ? resource.map(String) : undefined,
      email: typeof payload.email === 'string' ? payload.email : undefined,
      claims: payload,
    };
    if (check) await check(identity);
    const keepUntil = new Date(((payload.exp as number) + skewSeconds) * 1000).toISOString();
    if (!(await this.replay.useJti(trusted.issuer, payload.jti, keepUntil, current.toISOString()))) {
      throw invalidGrant('The ID-JAG was already used (jti replay).');
    }
    return identity;
  }
}
