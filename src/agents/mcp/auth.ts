/**
 * MCP's own authorization rules (MCP 2025-11-25 authorization and transport
 * security): the scope each tool needs and the Origin rule against DNS
 * rebinding. Bearer parsing and the RFC 6750 / RFC 9728 challenges are the
 * one gate every protected route shares, `src/http/bearer-auth.ts`.
 */
import type { Scope } from '../../identity/principal.js';

/** The scope each MCP tool needs; `undefined` = any valid token. Unknown tools are left to the server (tool error). */
export const toolScopes: Readonly<Record<string, Scope | undefined>> = {
  list_knowledge_bases: 'kb:read',
  get_knowledge_base: 'kb:read',
  list_records: 'kb:read',
  query_knowledge_base: 'kb:read',
  search_knowledge_base: 'kb:read',
  get_usage: 'kb:read',
  dismiss_usage_question: 'kb:write',
  create_knowledge_base: 'kb:write',
  update_knowledge_base: 'kb:write',
  delete_knowledge_base: 'kb:write',
  add_records: 'kb:write',
  create_api_key: 'kb:write',
  list_utilities: undefined,
  run_utility: 'tools:run',
};

/** The scope other methods need: reading resources is reading knowledge bases. */
export const methodScopes: Readonly<Record<string, Scope>> = {
  'resources/list': 'kb:read',
  'resources/read': 'kb:read',
};

/**
 * The first scope a JSON-RPC message (or batch) needs and the token lacks: `tools/call` of a
 * known tool, and the methods of `methodScopes`. Checked before the MCP server runs, so the
 * refusal can be an HTTP 403 the client's step-up flow handles.
 */
export function missingToolScope(message: unknown, scopes: ReadonlySet<Scope>): Scope | undefined {
  for (const item of Array.isArray(message) ? message : [message]) {
    if (item === null || typeof item !== 'object') continue;
    const { method, params } = item as { method?: unknown; params?: { name?: unknown } };
    if (typeof method !== 'string') continue;
    const table = method === 'tools/call' ? toolScopes : methodScopes;
    const key = method === 'tools/call' ? params?.name : method;
    // Own keys only: a tool named "constructor" is unknown, not Object's.
    const needed = typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined;
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
