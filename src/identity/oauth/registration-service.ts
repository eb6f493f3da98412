/**
 * `POST /oauth/register` (product.md §6, standards.md §2). With an
 * `identity_type` it provisions an agent: a public client and a claim —
 * anonymous (a new account with no e-mail, ready at once), verified_email
 * (pending until the person at that address confirms the e-mailed code on
 * the claim page; the client is then bound to that address's account, the
 * one the person gets when signing in), or an ID-JAG (verified, the account
 * bound to the assertion's iss + sub). Without one it is an RFC 7591 dynamic
 * client registration; with `Authorization: Bearer` of an account the client
 * acts for that account (needed for client_credentials). Anonymous accounts
 * are limited per client address (AnonymousAccountLimit); mails per address
 * are limited in the store's transaction (exact under concurrency).
 *
 * An ID-JAG registration is bounded by the assertion, by the same rules as
 * the jwt-bearer grant (id-jag-bounds.ts): the client's scope and APIs are
 * within the assertion's `scope` and `resource`; the assertion must name no
 * `client_id` (the agent has no client here yet; one naming a client is
 * refused: a registered client exchanges its ID-JAGs with jwt-bearer); its
 * claim expires with the assertion; and the claim gives an access token only
 * — no refresh token, no account key — the agent renews with a fresh ID-JAG
 * through jwt-bearer (docs/agents.md).
 */
import type { Mailer } from '../../ports/mailer.js';
import type { OAuthStore } from '../../ports/storage.js';
import { isDomainError } from '../../errors.js';
import { newId, randomBase62 } from '../../ids.js';
import { hashSecret } from '../../secrets.js';
import { normaliseEmail } from '../sign-in-service.js';
import { claimHash, newClaimId, newHumanCode, newVerificationCode } from './claim-codes.js';
import { defaultRedirectSchemes, jwtBearerGrant, validateClientMetadata } from './client-metadata.js';
import type { AnonymousAccountLimit } from './anonymous-account-limit.js';
import { invalidGrant, invalidRequest, OAuthError } from './errors.js';
import { type IdJagVerifier, idJagTokenType, skewSeconds } from './id-jag.js';
import { type AssertionBounds, assertionBounds } from './id-jag-bounds.js';
import type { Claim, ClaimKind, ClientMetadata, OAuthClient } from './model.js';
import type { Resources } from './scopes.js';

export const claimPolicy = {
  anonymousTtlMs: 3600_000,
  idJagTtlMs: 3600_000,
  pendingTtlMs: 24 * 3600_000,
  /** verified_email registrations per address per window (each sends a mail). */
  mailWindowMs: 15 * 60_000,
  maxMailsPerWindow: 5,
};

export const credentialTypes = ['bearer_token', 'api_key'] as const;
/** What an ID-JAG registration's claim gives (no account key: it would outlive the assertion). */
export const idJagCredentialTypes = ['bearer_token'] as const;
/** Seconds a polling agent waits between claim attempts (RFC 8628 §3.2 `interval`). */
export const claimPollIntervalSeconds = 5;
/** Metadata that only an RFC 7591 registration takes (an agent may still send client_name). */
const dcrFields = ['redirect_uris', 'grant_types', 'response_types', 'token_endpoint_auth_method'];

export interface AgentRegistrationResponse {
  client_id: string;
  claim_id: string;
  claim_uri: string;
  claim_expires_at: string;
  status: 'ready' | 'pending_verification';
  identity_type: 'anonymous' | 'identity_assertion';
  assertion_type?: string;
  credential_types_supported: string[];
  /** While pending: seconds to wait between polls of /oauth/claim. */
  interval?: number;
}

export interface RegistrationPolicy {
  /** Our APIs, to bound an ID-JAG registration by the assertion's `resource`. */
  resources: Resources;
  /** OAUTH_REDIRECT_SCHEMES; client-metadata.ts' default when absent. */
  redirectSchemes?: readonly string[];
}

export type RegistrationResponse = AgentRegistrationResponse | (ClientMetadata & Record<string, unknown>);

export class RegistrationService {
  constructor(
    private readonly store: OAuthStore,
    private readonly idJag: IdJagVerifier,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
    private readonly now: () => Date = () => new Date(),
    private readonly anonymousLimit: AnonymousAccountLimit | undefined,
    private readonly policy: RegistrationPolicy,
  ) {}

  /** `requester.ip`: the client's address, for the anonymous-account limit. */
  async register(body: unknown, initialAccountId: string | undefined, requester: { ip: string } = { ip: 'unknown' }): Promise<RegistrationResponse> {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('The body must be a JSON object.');
    const fields = body as Record<string, unknown>;
    if (fields.identity_type !== undefined) {
      if (dcrFields.some((f) => fields[f] !== undefined)) {
        throw invalidRequest('Send either identity_type (agent registration) or RFC 7591 client metadata such as redirect_uris, not both.');
      }
      return this.registerAgent(fields, requester.ip);
    }
    if (![...dcrFields, 'client_name'].some((f) => fields[f] !== undefined)) {
      throw invalidRequest('Send identity_type ("anonymous" or "identity_assertion") to register an agent, or redirect_uris for RFC 7591 registration.');
    }
    return this.registerClient(fields, initialAccountId);
  }

  private async registerClient(fields: Record<string, unknown>, accountId: string | undefined): Promise<RegistrationResponse> {
    const metadata = validateClientMetadata(fields, accountId !== undefined, this.policy.redirectSchemes ?? defaultRedirectSchemes);
    const confidential = metadata.token_endpoint_auth_method !== 'none';
    const secret = confidential ? `gw_cs_${randomBase62(256)}` : undefined;
    const at = this.now();
    const client: OAuthClient = {
      clientId: `cli_${randomBase62(128)}`,
      secretHash: secret ? hashSecret(secret) : null,
      accountId: accountId ?? null,
      kind: 'dcr',
      metadata,
      createdAt: at.toISOString(),
    };
    await this.store.createClient(client);
    return {
      client_id: client.clientId,
      ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
      client_id_issued_at: Math.floor(at.getTime() / 1000),
      ...metadata,
    };
  }

  private async registerAgent(fields: Record<string, unknown>, ip: string): Promise<AgentRegistrationResponse> {
    const clientName = fields.client_name;
    if (clientName !== undefined && (typeof clientName !== 'string' || clientName.length > 200)) {
      throw new OAuthError('invalid_client_metadata', 'client_name must be a string of at most 200 characters.');
    }
    const named = typeof clientName === 'string' ? { clientName } : {};
    const { identity_type: identityType, assertion_type: assertionType } = fields;
    if (identityType === 'anonymous') {
      if (assertionType !== undefined || fields.assertion !== undefined || fields.email !== undefined) {
        throw invalidRequest('An anonymous registration takes no assertion_type, assertion or email.');
      }
      // Only well-formed requests count; each new account has its own free quota.
      await this.anonymousLimit?.take(ip);
      const accountId = newId('acc');
      return this.provision('anonymous', accountId, { ...named, newAccount: true, ttlMs: claimPolicy.anonymousTtlMs });
    }
    if (identityType !== 'identity_assertion') throw invalidRequest('identity_type must be "anonymous" or "identity_assertion".');
    if (typeof assertionType !== 'string' || !assertionType) throw invalidRequest('assertion_type is required when identity_type is identity_assertion.');
    if (assertionType === 'verified_email') {
      if (fields.assertion !== undefined) throw invalidRequest('A verified_email registration takes email, not assertion.');
      if (typeof fields.email !== 'string') throw invalidRequest('email is required for the verified_email assertion type.');
      return this.registerEmailAgent(fields.email, named);
    }
    if (assertionType === idJagTokenType) {
      if (fields.email !== undefined) throw invalidRequest('An ID-JAG registration takes assertion, not email.');
      if (typeof fields.assertion !== 'string' || !fields.assertion) throw invalidRequest('assertion (the ID-JAG) is required for this assertion type.');
      let bounds: AssertionBounds | undefined;
      // Checked before the assertion's jti is spent, so a refused one can be corrected and sent again.
      const identity = await this.idJag.verify(fields.assertion, async (claims) => {
        if (claims.clientId !== undefined) {
          const existing = await this.store.getClient(claims.clientId.slice(0, 200));
          throw invalidGrant(
            existing
              ? 'The ID-JAG names a client that is already registered (client_id): that client exchanges it with the jwt-bearer grant at the token endpoint instead of registering again.'
              : 'The ID-JAG names a client_id that is not registered here. An ID-JAG for registering an agent names no client_id.',
          );
        }
        bounds = assertionBounds(claims, this.policy.resources);
      });
      const accountId = await this.store.accountForExternalIdentity(identity.issuer, identity.subject, newId('acc'), this.now().toISOString());
      return this.provision('id_jag', accountId, {
        ...named,
        ttlMs: claimPolicy.idJagTtlMs,
        // The claim lives no longer than the assertion (+ the skew the verifier allows).
        notAfterMs: (Number(identity.claims.exp) + skewSeconds) * 1000,
        assertionType,
        withJwtBearer: true,
        ...(bounds ? { bounds } : {}),
      });
    }
    throw new OAuthError('unsupported_assertion_type', `Unsupported assertion_type "${assertionType.slice(0, 100)}". Use verified_email or ${idJagTokenType}.`);
  }

  private async registerEmailAgent(rawEmail: string, named: { clientName?: string }): Promise<AgentRegistrationResponse> {
    let email: string;
    try {
      email = normaliseEmail(rawEmail);
    } catch (error) {
      if (isDomainError(error)) throw invalidRequest('email is not a valid e-mail address.');
      throw error;
    }
    const since = new Date(this.now().getTime() - claimPolicy.mailWindowMs).toISOString();
    return this.provision('verified_email', null, {
      ...named,
      ttlMs: claimPolicy.pendingTtlMs,
      assertionType: 'verified_email',
      email,
      mailBudget: { since, max: claimPolicy.maxMailsPerWindow },
    });
  }

  private async provision(
    kind: ClaimKind,
    accountId: string | null,
    options: {
      ttlMs: number;
      /** A latest expiry for the claim (epoch ms), whatever ttlMs says. */
      notAfterMs?: number;
      newAccount?: boolean;
      assertionType?: string;
      email?: string;
      withJwtBearer?: boolean;
      /** ID-JAG registrations: the client's scope and APIs. */
      bounds?: AssertionBounds;
      clientName?: string;
      /** verified_email: the mails one address may get per window, decided where the claim is stored. */
      mailBudget?: { since: string; max: number };
    },
  ): Promise<AgentRegistrationResponse> {
    const at = this.now();
    const createdAt = at.toISOString();
    const claimId = newClaimId();
    const hashOfClaim = claimHash(claimId);
    const human = newHumanCode();
    const verification = options.email ? newVerificationCode(hashOfClaim) : undefined;
    const client: OAuthClient = {
      clientId: `cli_${randomBase62(128)}`,
      secretHash: null,
      accountId,
      kind: 'agent',
      metadata: {
        redirect_uris: [],
        token_endpoint_auth_method: 'none',
        // An ID-JAG agent renews through jwt-bearer with a fresh assertion; it holds no refresh token.
        grant_types: options.withJwtBearer ? [jwtBearerGrant] : ['refresh_token'],
        response_types: [],
        ...(options.clientName ? { client_name: options.clientName } : {}),
        ...(options.bounds ? { scope: options.bounds.scope, resources: options.bounds.resources } : {}),
      },
      createdAt,
    };
    const claim: Claim = {
      claimHash: hashOfClaim,
      codeHash: human.hash,
      clientId: client.clientId,
      kind,
      email: options.email ?? null,
      verificationHash: verification?.hash ?? null,
      attempts: 0,
      confirmedAt: null,
      claimedAt: null,
      adoptedAt: null,
      expiresAt: new Date(Math.min(at.getTime() + options.ttlMs, options.notAfterMs ?? Number.POSITIVE_INFINITY)).toISOString(),
      createdAt,
    };
    const stored = await this.store.registerAgent(
      { ...(options.newAccount && accountId ? { newAccount: { accountId, createdAt } } : {}), client, claim },
      options.mailBudget,
    );
    if (!stored) {
      throw new OAuthError('slow_down', 'Too many registrations for this address. Try again later.', 429, {
        'retry-after': String(claimPolicy.mailWindowMs / 1000),
      });
    }
    const claimUri = `${this.publicUrl}/claim?code=${human.shown}`;
    if (options.email && verification) await this.sendConfirmation(options.email, claimUri, verification.shown, claim.expiresAt);
    return {
      client_id: client.clientId,
      claim_id: claimId,
      claim_uri: claimUri,
      claim_expires_at: claim.expiresAt,
      status: kind === 'verified_email' ? 'pending_verification' : 'ready',
      identity_type: kind === 'anonymous' ? 'anonymous' : 'identity_assertion',
      ...(options.assertionType ? { assertion_type: options.assertionType } : {}),
      credential_types_supported: kind === 'id_jag' ? [...idJagCredentialTypes] : [...credentialTypes],
      ...(kind === 'verified_email' ? { interval: claimPollIntervalSeconds } : {}),
    };
  }

  private async sendConfirmation(email: string, claimUri: string, code: string, expiresAt: string): Promise<void> {
    await this.mailer.send({
      to: email,
      subject: `Confirm an agent registration on Groundwork (${code})`,
      text: [
        `An AI agent registered with ${this.publicUrl} and named this address as its owner.`,
        '',
        `Confirmation code: ${code}`,
        '',
        `To let the agent use an account tied to this address, open ${claimUri}&verification=${code} and confirm.`,
        `The code works once and expires at ${expiresAt}.`,
        'If you did not expect this, ignore this message: nothing happens without the code.',
      ].join('\n'),
    });
  }
}
