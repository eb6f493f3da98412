/**
 * Resource-server side of the agent surfaces (standards.md §1, MCP
 * 2025-11-25 authorization and transport security): bearer parsing, the
 * RFC 6750 / RFC 9728 challenges, the scope each MCP tool needs, and the
 * Origin rule against DNS rebinding. The A2A endpoint uses the same helpers.
 */
import type { Scope } from '../../identity/principal.js';

/** RFC 6750 §2.1 b64token. */
const bearerPattern = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i;

export type BearerParse = { kind: 'none' } | { kind: 'malformed' } | { kind: 'token'; token: string };

export function parseBearer(header: string | undefined): BearerParse {
  if (header === undefined || header.trim() === '') return { kind: 'none' };
  // Another scheme (Basic, a bare key) is not an attempt at a bearer token: answer with the plain challenge.
  if (!/^Bearer(\s|$)/i.test(header)) return { kind: 'none' };
  const match = bearerPattern.exec(header);
  return match?.[1] ? { kind: 'token', token: match[1] } : { kind: 'malformed' };
}

/** `$O/.well-known/oauth-protected-resource/<path>` for a resource identifier `$O/<path>` (RFC 9728 §3.1). */
export function resourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname === '/' ? '' : url.pathname}`;
}

const quoted = (value: string) => `"${value.replace(/["\\]/g, '')}"`;

export interface Challenge {
  resource: string;
  /** The scope to ask for (the challenge without a token), or the one missing (insufficient_scope). */
  scope: string;
}

/** 401 without a token: where to find the authorization server and what to ask for. */
export function missingTokenChallenge({ resource, scope }: Challenge): string {
  return `Bearer resource_metadata=${quoted(resourceMetadataUrl(resource))}, scope=${quoted(scope)}`;
}

/** 401 for a token that is malformed, expired, revoked, not ours or for another audience. */
export function invalidTokenChallenge({ resource }: Pick<Challenge, 'resource'>, description: string): string {
  return `Bearer error="invalid_token", error_description=${quoted(description)}, resource_metadata=${quoted(resourceMetadataUrl(resource))}`;
}

/** 403 for a valid token that lacks a scope (RFC 6750 §3.1; MCP step-up authorization). */
export function insufficientScopeChallenge({ resource, scope }: Challenge, description: string): string {
  return `Bearer error="insufficient_scope", scope=${quoted(scope)}, resource_metadata=${quoted(resourceMetadataUrl(resource))}, error_description=${quoted(description)}`;
}

/** The scope each MCP tool needs; `undefined` = any valid token. Unknown tools are left to the server (tool error). */
export const toolScopes: Readonly<Record<string, Scope | undefined>> = {
  list_knowledge_bases: 'kb:read',
  get_knowledge_base: 'kb:read',
  list_records: 'kb:read',
  query_knowledge_base: 'kb:read',
  search_knowledge_base: 'kb:read',
  create_knowledge_base: 'kb:write',
  update_knowledge_base: 'kb:write',
  delete_knowledge_base: 'kb:write',
  add_records: 'kb:write',
  create_api_key: 'kb:write',
  list_utilities: undefined,
  run_utility: 'tools:run',
};

/**
 * The first scope a JSON-RPC message (or batch) needs and the token lacks:
 * only `tools/call` of a known tool needs one. Checked before the MCP server
 * runs, so the refusal can be an HTTP 403 the client's step-up flow handles.
 */
export function missingToolScope(message: unknown, scopes: ReadonlySet<Scope>): Scope | undefined {
  for (const item of Array.isArray(message) ? message : [message]) {
    if (item === null || typeof item !== 'object') continue;
    const { method, params } = item as { method?: unknown; params?: { name?: unknown } };
    if (method !== 'tools/call' || typeof params?.name !== 'string') continue;
    const needed = toolScopes[params.name];
    if (needed && !scopes.has(needed)) return needed;
  }
  return undefined;
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The MCP transport's Origin rule (2025-11-25 §Security Warning): requests
 * without `Origin` (agents, servers, CLIs) pass; a browser's `Origin` must be
 * the service's own origin — or, in development (loopback PUBLIC_URL), any
 * loopback origin, so a local inspector works. Anything else, `null`
 * included, is refused: that is what a DNS-rebinding page sends.
 */
export function originAllowed(origin: string | undefined, publicUrl: string, devMode: boolean): boolean {
  if (origin === undefined) return true;
  if (origin === new URL(publicUrl).origin) return true;
  if (!devMode) return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && (loopbackHosts.has(url.hostname) || url.hostname.endsWith('.localhost'));
  } catch {
    return false;
  }
}
