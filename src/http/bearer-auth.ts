/**
 * The one resource-server gate for every protected route (the management API,
 * MCP, A2A, the initial access token of `/oauth/register`): one RFC 6750
 * credential parser, one `WWW-Authenticate` challenge builder that always
 * names the RFC 9728 protected-resource metadata, and `bearerAuth(…)`, the
 * onRequest hook factory that authenticates, checks scopes and sets
 * `request.principal`. Modelled on the MCP SDK's `requireBearerAuth`.
 */
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { DomainError, type ErrorCode } from '../errors.js';
import type { BearerAuthenticator } from '../identity/oauth/bearer.js';
import { principalScopes } from '../identity/oauth/scopes.js';
import type { Principal, Scope } from '../identity/principal.js';
import { sendProblem } from './problem.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling, once a `bearerAuth` hook (or `requireAccount`) has let the request through. */
    principal: Principal | null;
  }
}

// ---------------------------------------------------------------------------
// Parsing (RFC 6750 §2)

/** `credentials = "Bearer" 1*SP b64token` (RFC 6750 §2.1); the scheme is case-insensitive (RFC 9110 §11.1). */
const bearerCredentials = /^bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)$/i;
const authScheme = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)(?:[ \t]|$)/;

export type BearerCredential =
  /** No Authorization header: the caller did not try. */
  | { kind: 'none' }
  /** An Authorization header with another scheme (Basic, a bare key): not a bearer token, answered like none. */
  | { kind: 'other_scheme' }
  | { kind: 'token'; token: string }
  /** `Bearer` with no token, two tokens or characters outside b64token: 401 invalid_token. */
  | { kind: 'malformed' }
  /** More than one Authorization header, or a token in the URL (RFC 6750 §2.3, which we do not accept): 400 invalid_request. */
  | { kind: 'invalid_request'; description: string };

export interface CredentialSources {
  /** Every Authorization field line, in order (Node's `headers` keeps only the first; `rawHeaders` has them all). */
  authorization: readonly string[];
  /** Whether the query string carries `access_token`. */
  queryToken?: boolean;
}

export function parseBearer({ authorization, queryToken = false }: CredentialSources): BearerCredential {
  if (queryToken) {
    return {
      kind: 'invalid_request',
      description:
        authorization.length > 0
          ? 'Send the access token once: in the Authorization header, not also in the URL (RFC 6750 §2).'
          : 'Send the access token in the Authorization header; this resource does not accept it in the URL (RFC 6750 §2.3).',
    };
  }
  if (authorization.length > 1) return { kind: 'invalid_request', description: 'Send one Authorization header with one bearer token.' };
  // Field values lose surrounding whitespace (RFC 9110 §5.5); Node trims already, direct callers may not.
  const value = authorization[0]?.replace(/^[ \t]+|[ \t]+$/g, '');
  if (value === undefined || value === '') return { kind: 'none' };
  if (authScheme.exec(value)?.[1]?.toLowerCase() !== 'bearer') return { kind: 'other_scheme' };
  const token = bearerCredentials.exec(value)?.[1];
  return token ? { kind: 'token', token } : { kind: 'malformed' };
}

/** The credential a request carries, from all its Authorization field lines and its query string. */
export function credentialOf(request: FastifyRequest): BearerCredential {
  const raw = request.raw.rawHeaders;
  const authorization: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]?.toLowerCase() === 'authorization') authorization.push(raw[i + 1] as string);
  const query = request.query;
  const queryToken = typeof query === 'object' && query !== null && Object.hasOwn(query, 'access_token');
  return parseBearer({ authorization, queryToken });
}

// ---------------------------------------------------------------------------
// Challenges (RFC 6750 §3, RFC 9728 §5.1)

/** `$O/.well-known/oauth-protected-resource/<path>` for a resource identifier `$O/<path>` (RFC 9728 §3.1), as discovery serves it. */
export function resourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname === '/' ? '' : url.pathname}`;
}

export type BearerError = 'invalid_request' | 'invalid_token' | 'insufficient_scope';

export interface ChallengeParams {
  /** The protected resource's identifier; its metadata URL is always sent. */
  resource: string;
  /** Absent when no credential was sent (RFC 6750 §3.1). */
  error?: BearerError | undefined;
  description?: string | undefined;
  /** The scope to ask for (no token), or the one missing (insufficient_scope). */
  scope?: string | undefined;
}

/** A quoted-string holding only the characters RFC 6750 §3 allows in its attribute values (no `"` or `\`). */
const quoted = (value: string) => `"${value.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '')}"`;

/** The one `WWW-Authenticate` value: `Bearer error, error_description, resource_metadata, scope` (those that apply, in this order). */
export function bearerChallenge({ resource, error, description, scope }: ChallengeParams): string {
  const params: string[] = [];
  if (error) params.push(`error=${quoted(error)}`);
  if (error && description) params.push(`error_description=${quoted(description)}`);
  params.push(`resource_metadata=${quoted(resourceMetadataUrl(resource))}`);
  if (scope) params.push(`scope=${quoted(scope)}`);
  return `Bearer ${params.join(', ')}`;
}

// ---------------------------------------------------------------------------
// Refusals

export interface Refusal {
  status: 400 | 401 | 403;
  /** Absent for "no credential sent". */
  error: BearerError | undefined;
  description: string;
  /** The `WWW-Authenticate` value to send. */
  challenge: string;
  /** The missing scope (insufficient_scope). */
  requiredScope?: string;
}

export const invalidTokenDescription = 'The access token is invalid, expired, revoked or not meant for this resource.';

/** A 403 insufficient_scope refusal, for checks a route makes itself (MCP's per-tool scopes). */
export function insufficientScope(resource: string, scope: string, description: string): Refusal {
  return { status: 403, error: 'insufficient_scope', description, requiredScope: scope, challenge: bearerChallenge({ resource, error: 'insufficient_scope', description, scope }) };
}

const problemCodes: Record<Refusal['status'], ErrorCode> = { 400: 'bad_request', 401: 'unauthorized', 403: 'forbidden' };

/** Answers a refusal as a problem document (the default for every protected route) with its challenge. */
export function sendRefusal(reply: FastifyReply, publicUrl: string, refusal: Refusal): FastifyReply {
  reply.header('www-authenticate', refusal.challenge);
  return sendProblem(reply, publicUrl, problemCodes[refusal.status], refusal.description, refusal.requiredScope ? { requiredScope: refusal.requiredScope } : {});
}

// ---------------------------------------------------------------------------
// The hook factory

export type TokenAuthenticator = Pick<BearerAuthenticator, 'authenticate'>;

export interface BearerAuthOptions {
  /** For problem-document type URLs. */
  publicUrl: string;
  /** The protected resource (RFC 8707 identifier) the challenge's metadata describes. */
  resource: string;
  /** Token audiences accepted, first match wins; default `[resource]`. */
  audiences?: readonly string[];
  authenticator: TokenAuthenticator;
  /** Scopes every request needs (403 insufficient_scope otherwise). */
  scopes?: readonly Scope[];
  /** The scope a challenge without a token asks for; default the required scopes. */
  challengeScope?: string;
  /** The detail of a 401 without a token. */
  missingDescription?: string;
  /**
   * Without an Authorization header: another way in (the dashboard's session cookie).
   * Returns the principal, or the detail of the 401 to answer; errors it throws pass through.
   */
  otherwise?: (request: FastifyRequest) => Promise<Principal | string>;
  /** A request without any credential passes with `request.principal` null (RFC 7591's optional initial access token). */
  optional?: boolean;
  /** How a refusal is answered; default a problem document. May throw instead (an OAuth endpoint's error body). */
  refuse?: (reply: FastifyReply, refusal: Refusal) => FastifyReply;
}

export function bearerAuth(options: BearerAuthOptions): onRequestAsyncHookHandler {
  const { resource, authenticator, scopes = [] } = options;
  const audiences = options.audiences ?? [resource];
  const challengeScope = options.challengeScope ?? (scopes.join(' ') || undefined);
  const missingDescription = options.missingDescription ?? `Send Authorization: Bearer <access token for ${resource}>.`;
  const refuse = options.refuse ?? ((reply: FastifyReply, refusal: Refusal) => sendRefusal(reply, options.publicUrl, refusal));

  const refusal = (status: Refusal['status'], error: BearerError | undefined, description: string): Refusal => ({
    status,
    error,
    description,
    challenge: bearerChallenge({ resource, error, description, scope: error === undefined ? challengeScope : undefined }),
  });

  async function principalFor(token: string): Promise<Principal | undefined> {
    for (const audience of audiences) {
      const identity = await authenticator.authenticate(token, audience);
      if (identity) return { accountId: identity.accountId, via: 'bearer', scopes: principalScopes(identity.scopes.join(' ')) };
    }
    return undefined;
  }

  /** The caller, a refusal, or null for an optional credential left out. */
  async function resolve(request: FastifyRequest): Promise<Principal | Refusal | null> {
    const credential = credentialOf(request);
    switch (credential.kind) {
      case 'invalid_request':
        return refusal(400, 'invalid_request', credential.description);
      case 'malformed':
        return refusal(401, 'invalid_token', invalidTokenDescription);
      case 'token':
        return (await principalFor(credential.token)) ?? refusal(401, 'invalid_token', invalidTokenDescription);
      case 'other_scheme':
        return refusal(401, undefined, missingDescription);
      case 'none': {
        if (options.optional) return null;
        const other = options.otherwise ? await options.otherwise(request) : missingDescription;
        return typeof other === 'string' ? refusal(401, undefined, other) : other;
      }
    }
  }

  return async function bearerAuthHook(request: FastifyRequest, reply: FastifyReply) {
    const outcome = await resolve(request);
    if (outcome === null) return undefined;
    if ('status' in outcome) return refuse(reply, outcome);
    const missing = scopes.find((scope) => !outcome.scopes.has(scope));
    if (missing) return refuse(reply, insufficientScope(resource, missing, `This credential lacks the ${missing} scope.`));
    request.principal = outcome;
    return undefined;
  };
}

/** The caller a `bearerAuth` hook let through; only valid on routes behind one. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new DomainError('unauthorized', 'Authentication required.');
  return request.principal;
}
