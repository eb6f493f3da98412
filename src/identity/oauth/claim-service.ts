/**
 * Claims (product.md §6). The agent redeems its `claim_id` once for a bearer
 * token (+ refresh token) or an account API key. The person's side, on the
 * claim page: confirm a verified_email registration with the e-mailed code
 * (5 attempts per claim, each taken before the code is compared; then the
 * registration is locked and the polling agent told so), or — signed in —
 * take ownership of an anonymous agent's account. Taking ownership moves the
 * agent's knowledge bases into the person's account; the person chooses what
 * the agent keeps (AgentAccess): by default only what it made — the agent's
 * credentials keep acting as its own account, which now reaches just the
 * knowledge bases it made, before and after (the store enforces this for
 * every surface: REST, MCP, A2A) — or the whole account, for which the
 * agent's client and grants are re-bound to the person's account.
 */
import type { AccountStore, OAuthStore } from '../../ports/storage.js';
import { newId } from '../../ids.js';
import { safeEqual } from '../../secrets.js';
import { claimHash, humanCodeHash, isHumanCode, verificationHash } from './claim-codes.js';
import type { Credentials, TokenResponse } from './credentials.js';
import { invalidGrant, invalidRequest, OAuthError } from './errors.js';
import type { AgentAccess, Claim } from './model.js';
import { claimPollIntervalSeconds, credentialTypes } from './registration-service.js';
import { defaultScope, parseResources, type Resources } from './scopes.js';

export const claimConfirmationMaxAttempts = 5;
/** How long a person may take ownership of an anonymous agent's account through claim_uri. */
export const adoptionWindowMs = 7 * 86_400_000;

/** `refresh_token` is absent for an agent registered with an ID-JAG (registration-service.ts). */
export type ClaimResponse =
  | ({ credential_type: 'bearer_token'; client_id: string } & Required<Pick<TokenResponse, 'access_token' | 'token_type' | 'expires_in' | 'scope'>> &
      Pick<TokenResponse, 'refresh_token'>)
  | { credential_type: 'api_key'; api_key: string; scope: string; client_id: string };

export type ClaimPageState =
  | { state: 'unknown' }
  | { state: 'expired' }
  | { state: 'confirm'; claim: Claim }
  | { state: 'locked' }
  | { state: 'confirmed'; claim: Claim }
  | { state: 'adopt'; claim: Claim }
  | { state: 'adopted'; claim: Claim }
  | { state: 'external'; claim: Claim };

export type ConfirmOutcome = 'confirmed' | 'wrong_code' | 'locked' | 'not_pending';

export class ClaimService {
  constructor(
    private readonly store: OAuthStore,
    private readonly accounts: AccountStore,
    private readonly credentials: Credentials,
    private readonly resources: Resources,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** POST /oauth/claim. */
  async claim(body: unknown): Promise<ClaimResponse> {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('The body must be a JSON object {claim_id, credential_type?}.');
    const { claim_id: claimId, credential_type: type = 'bearer_token', resource } = body as Record<string, unknown>;
    if (typeof claimId !== 'string' || !claimId || claimId.length > 200) throw invalidRequest('claim_id is required.');
    if (typeof type !== 'string' || !(credentialTypes as readonly string[]).includes(type)) {
      throw invalidRequest(`credential_type must be one of ${credentialTypes.join(', ')}.`);
    }
    const requested = resource === undefined ? [] : Array.isArray(resource) ? resource : [resource];
    if (requested.some((r) => typeof r !== 'string')) throw invalidRequest('resource must be a string or an array of strings.');
    // Ours at all (before the claim is looked up); narrowed to what the agent may have below.
    const wanted = parseResources(this.resources.expand(requested as string[]), this.resources.all, []);

    const hash = claimHash(claimId);
    const at = this.now();
    const claim = await this.store.findClaim(hash);
    if (!claim) throw invalidGrant('Unknown claim_id.', 404);
    if (claim.claimedAt !== null) throw invalidGrant('This claim_id was already redeemed.', 409);
    if (Date.parse(claim.expiresAt) <= at.getTime()) throw new OAuthError('expired_token', 'The claim has expired. Register again.', 410);
    if (claim.kind === 'verified_email' && claim.confirmedAt === null && claim.attempts >= claimConfirmationMaxAttempts) {
      // Terminal (RFC 8628 §3.5): polling on would never succeed.
      throw new OAuthError('access_denied', 'Too many wrong confirmation codes were entered for this registration. Register again.', 403);
    }
    if (claim.kind === 'verified_email' && claim.confirmedAt === null) {
      throw new OAuthError(
        'authorization_pending',
        `The e-mail address is not confirmed yet. Poll again, at most every ${claimPollIntervalSeconds} s, after the person confirms at claim_uri.`,
        403,
        {},
        { interval: claimPollIntervalSeconds },
      );
    }
    const client = await this.store.getClient(claim.clientId);
    if (!client?.accountId) throw invalidGrant('The claim has no account.', 404);
    // An ID-JAG agent: within the assertion's scope and APIs, and an access token only (registration-service.ts).
    const fromAssertion = claim.kind === 'id_jag';
    if (fromAssertion && type === 'api_key') {
      throw invalidRequest('An agent registered with an ID-JAG gets access tokens only (credential_type bearer_token): an account key would outlive the assertion.');
    }
    const allowed = client.metadata.resources ?? this.resources.all;
    // The claim's bearer token serves every API allowed unless the agent narrows it (it cannot know yet which it will use).
    const resources = parseResources(wanted, allowed, allowed);
    const grant = this.credentials.grant('claim', client.clientId, client.accountId, client.metadata.scope ?? defaultScope, resources);
    if (fromAssertion) {
      if (!(await this.store.redeemClaim(hash, at.toISOString(), grant, {}))) throw invalidGrant('This claim_id was already redeemed.', 409);
      const tokens = await this.credentials.tokenResponse(grant, resources, grant.scope);
      return { credential_type: 'bearer_token', ...tokens, client_id: client.clientId };
    }
    if (type === 'api_key') {
      const key = this.credentials.accountKey(grant.grantId);
      if (!(await this.store.redeemClaim(hash, at.toISOString(), grant, { accountKey: key.row })))
        throw invalidGrant('This claim_id was already redeemed.', 409);
      return { credential_type: 'api_key', api_key: key.key, scope: grant.scope, client_id: client.clientId };
    }
    const refresh = this.credentials.refreshToken(grant.grantId);
    if (!(await this.store.redeemClaim(hash, at.toISOString(), grant, { refresh: refresh.row })))
      throw invalidGrant('This claim_id was already redeemed.', 409);
    const tokens = await this.credentials.tokenResponse(grant, resources, grant.scope, refresh.token);
    return {
      credential_type: 'bearer_token',
      access_token: tokens.access_token,
      token_type: 'Bearer',
      expires_in: tokens.expires_in,
      refresh_token: refresh.token,
      scope: tokens.scope,
      client_id: client.clientId,
    };
  }

  /** What the claim page shows for the human code in claim_uri. */
  async pageState(code: string): Promise<ClaimPageState> {
    if (!isHumanCode(code)) return { state: 'unknown' };
    const claim = await this.store.findClaimByCode(humanCodeHash(code));
    if (!claim) return { state: 'unknown' };
    const at = this.now().getTime();
    if (claim.kind === 'verified_email') {
      if (claim.confirmedAt !== null) return { state: 'confirmed', claim };
      if (Date.parse(claim.expiresAt) <= at) return { state: 'expired' };
      return claim.attempts >= claimConfirmationMaxAttempts ? { state: 'locked' } : { state: 'confirm', claim };
    }
    if (claim.kind === 'id_jag') return { state: 'external', claim };
    if (claim.adoptedAt !== null) return { state: 'adopted', claim };
    if (Date.parse(claim.createdAt) + adoptionWindowMs <= at) return { state: 'expired' };
    return { state: 'adopt', claim };
  }

  /** The person proves the address with the e-mailed code; the agent's client is bound to that address's account. */
  async confirm(code: string, verification: string): Promise<ConfirmOutcome> {
    const page = await this.pageState(code);
    if (page.state === 'locked') return 'locked';
    if (page.state !== 'confirm') return 'not_pending';
    const { claim } = page;
    // The attempt is taken before the comparison, in one conditional write: however many guesses
    // arrive at once, no more than claimConfirmationMaxAttempts are ever compared.
    if (!(await this.store.reserveClaimAttempt(claim.claimHash, claimConfirmationMaxAttempts, this.now().toISOString()))) {
      return (await this.pageState(code)).state === 'locked' ? 'locked' : 'not_pending';
    }
    if (!claim.verificationHash || !claim.email || !safeEqual(claim.verificationHash, verificationHash(claim.claimHash, verification))) {
      return (await this.pageState(code)).state === 'locked' ? 'locked' : 'wrong_code';
    }
    const account = await this.accounts.accountForEmail(claim.email, newId('acc'));
    return (await this.store.confirmClaim(claim.claimHash, account.accountId, this.now().toISOString())) ? 'confirmed' : 'not_pending';
  }

  /** A signed-in person takes ownership of an anonymous agent's account; the agent keeps `access` (default: only what it made). */
  async adopt(code: string, accountId: string, access: AgentAccess = 'own'): Promise<boolean> {
    const page = await this.pageState(code);
    if (page.state !== 'adopt') return false;
    return this.store.adoptAgentAccount(page.claim.claimHash, accountId, this.now().toISOString(), access);
  }
}
