/**
 * The authorization endpoint's rules (RFC 6749 §4.1, RFC 7636, RFC 8707,
 * RFC 9207, OAuth 2.1): validates an authorization request, and on the
 * person's approval issues a single-use code (5 minutes, stored hashed,
 * bound to client, redirect URI, PKCE S256 challenge, scope and resources).
 * Errors before the client and redirect URI are known are shown to the
 * person, never redirected (RFC 6749 §4.1.2.1); later ones go back to the
 * client with `error`, `state` and `iss`.
 */
import type { OAuthStore } from '../../ports/storage.js';
import { randomBase62 } from '../../ids.js';
import { hashSecret } from '../../secrets.js';
import type { ClientLookup } from './client-directory.js';
import { matchRedirectUri } from './client-metadata.js';
import { OAuthError } from './errors.js';
import type { OAuthClient } from './model.js';
import { parseResources, parseScope, type Resources, scopeWithin } from './scopes.js';

export const authorizationCodeTtlMs = 5 * 60_000;
const challengeShape = /^[A-Za-z0-9_-]{43}$/;

export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  scope: string;
  resources: string[];
}

/** Shown to the person: the request cannot be trusted to redirect anywhere. */
export class AuthorizationPageError extends Error {}

/** Sent back to the client's redirect URI. */
export class AuthorizationRedirectError extends Error {
  constructor(
    readonly location: string,
    readonly error: string,
  ) {
    super(error);
  }
}

export class AuthorizationService {
  constructor(
    private readonly store: OAuthStore,
    private readonly issuer: string,
    private readonly resources: Resources,
    private readonly now: () => Date = () => new Date(),
    /** Registered clients and metadata-document clients (client-directory.ts); the store alone by default. */
    private readonly clients: ClientLookup = store,
  ) {}

  /** `redirect_uri?…` with the response parameters (keeping any query the URI registered). */
  redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
    const url = new URL(redirectUri);
    for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(key, value);
    url.searchParams.append('iss', this.issuer);
    return url.toString();
  }

  /** Validates the request's parameters (query string of GET, or replayed from the consent form). */
  async validate(params: URLSearchParams): Promise<AuthorizationRequest> {
    const single = (name: string): string | undefined => {
      const values = params.getAll(name);
      if (values.length > 1) throw new AuthorizationPageError(`The parameter ${name} appears more than once.`);
      return values[0];
    };
    const clientId = single('client_id');
    if (!clientId) throw new AuthorizationPageError('The request names no client (client_id is missing).');
    let client: OAuthClient | undefined;
    try {
      client = await this.clients.getClient(clientId);
    } catch (error) {
      // A metadata document that cannot be used: the client is unknown, so the person is told why.
      if (error instanceof OAuthError) throw new AuthorizationPageError(error.message);
      throw error;
    }
    if (!client) throw new AuthorizationPageError('The application asking for access is not registered here.');
    const registered = client.metadata.redirect_uris;
    const requestedUri = single('redirect_uri');
    let redirectUri: string;
    if (requestedUri !== undefined) {
      if (!matchRedirectUri(registered, requestedUri)) throw new AuthorizationPageError('The redirect URI does not match one the application registered.');
      redirectUri = requestedUri;
    } else if (registered.length === 1) {
      redirectUri = registered[0] as string;
    } else {
      throw new AuthorizationPageError('The request must name its redirect_uri.');
    }
    const state = single('state');
    const fail = (error: string, description: string): never => {
      throw new AuthorizationRedirectError(this.redirectWith(redirectUri, { error, error_description: description, state }), error);
    };
    if (single('response_type') !== 'code') fail('unsupported_response_type', 'Only response_type=code is supported.');
    if (!client.metadata.grant_types.includes('authorization_code'))
      fail('unauthorized_client', 'This client is not registered for the authorization_code grant.');
    const challenge = single('code_challenge');
    if (!challenge) fail('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256.');
    if (single('code_challenge_method') !== 'S256') fail('invalid_request', 'code_challenge_method must be S256.');
    if (!challengeShape.test(challenge as string)) fail('invalid_request', 'code_challenge must be 43 base64url characters (S256).');
    let scope = '';
    let resources: string[] = [];
    try {
      scope = parseScope(single('scope'), client.metadata.scope);
      if (client.metadata.scope && !scopeWithin(scope, client.metadata.scope)) {
        throw new OAuthError('invalid_scope', `This client may ask only for "${client.metadata.scope}".`);
      }
      resources = parseResources(this.resources.expand(params.getAll('resource')), this.resources.all, this.resources.defaultFor(single('scope')));
    } catch (error) {
      if (error instanceof OAuthError) fail(error.error, error.message);
      throw error;
    }
    return { client, redirectUri, state, codeChallenge: challenge as string, scope, resources };
  }

  /** The person approved: a code for the client, as the redirect location. */
  async approve(request: AuthorizationRequest, accountId: string): Promise<string> {
    const code = `gw_ac_${randomBase62(256)}`;
    const at = this.now();
    await this.store.putAuthorizationCode({
      codeHash: hashSecret(code),
      clientId: request.client.clientId,
      accountId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      scope: request.scope,
      resources: request.resources,
      expiresAt: new Date(at.getTime() + authorizationCodeTtlMs).toISOString(),
      usedAt: null,
      grantId: null,
      createdAt: at.toISOString(),
    });
    return this.redirectWith(request.redirectUri, { code, state: request.state });
  }

  deny(request: AuthorizationRequest): string {
    return this.redirectWith(request.redirectUri, { error: 'access_denied', error_description: 'The person declined the request.', state: request.state });
  }
}
