/**
 * `POST /oauth/token` (RFC 6749 §3.2, standards.md §2): authorization_code
 * (PKCE S256; single use — a second presentation revokes what the first
 * issued), refresh_token (rotated; presenting a rotated token again within
 * the grace window returns its live successor, later it revokes the grant:
 * docs/agents.md, OAuth 2.1 §4.3.1, RFC 9700 §4.14), client_credentials
 * (confidential clients registered by an account) and jwt-bearer with an
 * ID-JAG (RFC 7523; no refresh token). `resource` (RFC 8707) picks the
 * audience among what the grant allows; without it the token is for the
 * management API, or the MCP server when the scope asked for is only `mcp`.
 */
import { createHash } from 'node:crypto';
import type { OAuthStore } from '../../ports/storage.js';
import { newId } from '../../ids.js';
import { hashSecret } from '../../secrets.js';
import type { CallingClient, ClientAuthenticator, FormFields } from './client-auth.js';
import { jwtBearerGrant } from './client-metadata.js';
import type { Credentials, TokenResponse } from './credentials.js';
import { invalidGrant, invalidRequest, OAuthError } from './errors.js';
import type { IdJagVerifier } from './id-jag.js';
import { assertionBounds, requireAssertionClient } from './id-jag-bounds.js';
import type { OAuthClient } from './model.js';
import { narrowScope, parseResources, parseScope, type Resources } from './scopes.js';

/** REFRESH_REUSE_GRACE_SECONDS' default: long enough for parallel requests and a retry after a lost answer. */
export const defaultRefreshReuseGraceSeconds = 30;
/** Rotations within one grace window that a repeat may follow; a longer line is reuse. */
const successorChainLength = 8;

export interface TokenPolicy {
  /** How long a rotated refresh token may be presented again for the same successor (0: never). */
  refreshReuseGraceSeconds?: number;
}

const verifierShape = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface TokenRequest {
  authorization: string | undefined;
  fields: FormFields;
  /** Every `resource` value sent (the parameter may repeat). */
  resources: string[];
}

function required(fields: FormFields, name: string): string {
  const value = fields[name];
  if (!value) throw invalidRequest(`${name} is required.`);
  return value;
}

function allowsGrant(client: OAuthClient, grantType: string): void {
  if (!client.metadata.grant_types.includes(grantType))
    throw new OAuthError('unauthorized_client', `This client is not registered for the ${grantType} grant.`);
}

export class TokenService {
  constructor(
    private readonly store: OAuthStore,
    private readonly clients: ClientAuthenticator,
    private readonly credentials: Credentials,
    private readonly idJag: IdJagVerifier,
    private readonly resources: Resources,
    private readonly now: () => Date = () => new Date(),
    private readonly policy: TokenPolicy = {},
  ) {}

  async exchange(request: TokenRequest): Promise<TokenResponse> {
    const grantType = request.fields.grant_type;
    switch (grantType) {
      case 'authorization_code':
        return this.authorizationCode(request, await this.clients.require(request.authorization, request.fields));
      case 'refresh_token':
        return this.refreshToken(request, await this.clients.require(request.authorization, request.fields));
      case 'client_credentials':
        return this.clientCredentials(request, await this.clients.require(request.authorization, request.fields));
      case jwtBearerGrant:
        return this.jwtBearer(request, await this.clients.identify(request.authorization, request.fields));
      case undefined:
      case '':
        throw invalidRequest('grant_type is required.');
      default:
        throw new OAuthError('unsupported_grant_type', `Unsupported grant_type "${grantType.slice(0, 100)}".`);
    }
  }

  private async authorizationCode({ fields, resources }: TokenRequest, { client }: CallingClient): Promise<TokenResponse> {
    allowsGrant(client, 'authorization_code');
    const code = required(fields, 'code');
    const redirectUri = required(fields, 'redirect_uri');
    const verifier = required(fields, 'code_verifier');
    const codeHash = hashSecret(code);
    const stored = await this.store.findAuthorizationCode(codeHash);
    const at = this.now();
    if (!stored || stored.clientId !== client.clientId) throw invalidGrant('The authorization code is invalid.');
    if (stored.usedAt !== null) {
      if (stored.grantId) await this.store.revokeGrant(stored.grantId, at.toISOString());
      throw invalidGrant('The authorization code was already used; the tokens issued from it are revoked.');
    }
    if (Date.parse(stored.expiresAt) <= at.getTime()) throw invalidGrant('The authorization code has expired.');
    if (stored.redirectUri !== redirectUri) throw invalidGrant('redirect_uri differs from the one in the authorization request.');
    const challenge = createHash('sha256').update(verifier, 'ascii').digest('base64url');
    if (!verifierShape.test(verifier) || challenge !== stored.codeChallenge) throw invalidGrant('The PKCE code_verifier does not match the code_challenge.');
    const audience = parseResources(this.resources.expand(resources), stored.resources, stored.resources);

    const grant = this.credentials.grant('authorization_code', client.clientId, stored.accountId, stored.scope, stored.resources);
    const refresh = client.metadata.grant_types.includes('refresh_token') ? this.credentials.refreshToken(grant.grantId) : undefined;
    if (!(await this.store.redeemAuthorizationCode(codeHash, at.toISOString(), grant, { refresh: refresh?.row }))) {
      const winner = await this.store.findAuthorizationCode(codeHash);
      if (winner?.grantId) await this.store.revokeGrant(winner.grantId, at.toISOString());
      throw invalidGrant('The authorization code was already used; the tokens issued from it are revoked.');
    }
    return this.credentials.tokenResponse(grant, audience, grant.scope, refresh?.token);
  }

  private async refreshToken({ fields, resources }: TokenRequest, { client }: CallingClient): Promise<TokenResponse> {
    allowsGrant(client, 'refresh_token');
    const token = required(fields, 'refresh_token');
    const tokenHash = hashSecret(token);
    const stored = await this.store.findRefreshToken(tokenHash);
    const grant = stored ? await this.store.getGrant(stored.grantId) : undefined;
    // A token of another client is not this client's to spend (or to burn by reuse detection).
    if (!stored || !grant || grant.clientId !== client.clientId) throw invalidGrant('The refresh token is invalid.');
    const scope = narrowScope(fields.scope, grant.scope);
    const audience = parseResources(this.resources.expand(resources), grant.resources, grant.resources);
    // Derived from the presented token, each from the one before: a repeat within the grace window
    // names the same successors, and gets the first of them not yet exchanged.
    const chain = [this.credentials.successorRefreshToken(token, grant.grantId)];
    while (chain.length < successorChainLength) chain.push(this.credentials.successorRefreshToken((chain[chain.length - 1] as { token: string }).token, grant.grantId));
    const at = this.now();
    const graceMs = (this.policy.refreshReuseGraceSeconds ?? defaultRefreshReuseGraceSeconds) * 1000;
    const graceSince = graceMs > 0 ? new Date(at.getTime() - graceMs).toISOString() : undefined;
    const outcome = await this.store.rotateRefreshToken(
      tokenHash,
      chain.map((c) => c.row),
      at.toISOString(),
      graceSince,
    );
    if (outcome.kind === 'reused') throw invalidGrant('The refresh token was already used; every token of this grant is now revoked.');
    if (outcome.kind === 'invalid') throw invalidGrant('The refresh token is invalid, expired or revoked.');
    return this.credentials.tokenResponse(outcome.grant, audience, scope, (chain[outcome.successor] as { token: string }).token);
  }

  private async clientCredentials({ fields, resources }: TokenRequest, { client, authenticated }: CallingClient): Promise<TokenResponse> {
    if (!authenticated) throw new OAuthError('invalid_client', 'client_credentials needs a confidential client that authenticates.', 401);
    allowsGrant(client, 'client_credentials');
    if (!client.accountId) throw new OAuthError('unauthorized_client', 'This client acts for no account.');
    const allowed = client.metadata.scope ?? parseScope(undefined);
    const scope = narrowScope(fields.scope, allowed);
    const audience = parseResources(this.resources.expand(resources), this.resources.all, this.resources.defaultFor(fields.scope));
    const grant = this.credentials.grant('client_credentials', client.clientId, client.accountId, scope, audience);
    await this.store.createGrant(grant, {});
    return this.credentials.tokenResponse(grant, audience, scope);
  }

  private async jwtBearer({ fields, resources }: TokenRequest, caller: CallingClient | undefined): Promise<TokenResponse> {
    const assertion = required(fields, 'assertion');
    let client: OAuthClient | undefined = caller?.client;
    const identity = await this.idJag.verify(assertion, async (claims) => {
      if (caller) requireAssertionClient(claims, caller.client.clientId);
      else if (!claims.clientId) throw invalidGrant('The ID-JAG has no client_id claim.');
      else {
        client = await this.store.getClient(claims.clientId);
        if (!client) throw invalidGrant('The ID-JAG names a client_id that is not registered here.');
        if (client.secretHash !== null) throw new OAuthError('invalid_client', 'This client is confidential: authenticate with its secret.', 401);
      }
      allowsGrant(client as OAuthClient, jwtBearerGrant);
    });
    const calling = client as OAuthClient;
    // The grant stays within what the ID-JAG itself grants (scope, resource), when it says.
    const bounds = assertionBounds(identity, this.resources);
    const scope = narrowScope(fields.scope, bounds.scope);
    const fallback = bounds.resourceNamed ? bounds.resources : this.resources.defaultFor(fields.scope);
    const audience = parseResources(this.resources.expand(resources), bounds.resources, fallback);
    const accountId = await this.store.accountForExternalIdentity(identity.issuer, identity.subject, newId('acc'), this.now().toISOString());
    const grant = this.credentials.grant('jwt_bearer', calling.clientId, accountId, scope, audience);
    await this.store.createGrant(grant, {});
    return this.credentials.tokenResponse(grant, audience, scope);
  }
}
