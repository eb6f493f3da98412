/**
 * What a verified ID-JAG allows us to grant, one rule for both places that take one: the
 * jwt-bearer grant (token-service.ts) and agent registration (registration-service.ts).
 *
 * - Scope: within the assertion's `scope` when it carries one (its scopes unknown here are
 *   ignored; none of ours left is `invalid_scope`); without `scope`, anything of ours.
 * - Audience: within the assertion's `resource` when it carries one (normalised like a
 *   request's `resource`; none of ours left is `invalid_target`); without it, both APIs.
 * - Client: the `client_id` claim names the client the credentials go to (standards.md §3).
 *
 * The assertion's lifetime bounds the credentials in the callers: jwt-bearer issues an access
 * token only, and registration neither a refresh token nor an account key (docs/agents.md).
 */
import { invalidGrant, OAuthError } from './errors.js';
import type { IdJagIdentity } from './id-jag.js';
import { parseScope, type Resources } from './scopes.js';

const ourScopes = ['kb:read', 'kb:write', 'tools:run', 'mcp'];

export interface AssertionBounds {
  /** The largest scope the assertion allows (parsed, `mcp` expanded). */
  scope: string;
  /** The APIs tokens from it may be for. */
  resources: string[];
  /** True when the assertion named resources (else every API of ours). */
  resourceNamed: boolean;
}

export function assertionBounds(identity: IdJagIdentity, resources: Resources): AssertionBounds {
  const known = identity.scope?.split(' ').filter((s) => ourScopes.includes(s));
  if (known && known.length === 0) throw new OAuthError('invalid_scope', 'The ID-JAG grants no scope of this server.');
  const ours = identity.resources && resources.expand(identity.resources).filter((r) => resources.all.includes(r));
  if (ours && ours.length === 0) throw new OAuthError('invalid_target', 'The ID-JAG is for a resource this server does not serve.');
  return { scope: parseScope(known?.join(' ')), resources: ours ?? resources.all, resourceNamed: ours !== undefined };
}

/** The `client_id` claim must name `expected` (the client the credentials are for). */
export function requireAssertionClient(identity: IdJagIdentity, expected: string): void {
  if (!identity.clientId) throw invalidGrant('The ID-JAG has no client_id claim.');
  if (identity.clientId !== expected) throw invalidGrant('The ID-JAG was issued to another client (client_id).');
}
