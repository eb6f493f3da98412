/**
 * Scopes and resources (product.md §6, RFC 8707). Scopes: `kb:read` (query,
 * search), `kb:write` (manage knowledge bases and keys), `tools:run`
 * (utilities); `mcp` is an alias MCP clients may ask for, granting all three
 * (it stays in the granted scope so an MCP server may check it). Resources are
 * our two protected APIs: the management API `{PUBLIC_URL}/api/v1` (the default
 * audience) and the MCP server `{PUBLIC_URL}/api/mcp`.
 */
import { allScopes, type Scope } from '../principal.js';
import { OAuthError } from './errors.js';

const order = [...allScopes, 'mcp'] as const;
export type GrantedScope = (typeof order)[number];

export const defaultScope = allScopes.join(' ');

/** Parses a space-separated scope; undefined or blank gives `fallback`. Unknown scopes are `invalid_scope`. */
export function parseScope(raw: string | undefined, fallback = defaultScope): string {
  const text = raw?.trim() ? raw : fallback;
  const wanted = new Set<string>();
  for (const item of text.split(' ').filter(Boolean)) {
    if (!(order as readonly string[]).includes(item))
      throw new OAuthError('invalid_scope', `Unknown scope "${item.slice(0, 40)}". Known: ${order.join(', ')}.`);
    wanted.add(item);
    if (item === 'mcp') for (const s of allScopes) wanted.add(s);
  }
  if (wanted.size === 0) throw new OAuthError('invalid_scope', 'The scope is empty.');
  return order.filter((s) => wanted.has(s)).join(' ');
}

/** Whether every scope of `requested` is in `granted` (both already parsed). */
export function scopeWithin(requested: string, granted: string): boolean {
  const have = new Set(granted.split(' '));
  return requested.split(' ').every((s) => have.has(s));
}

/** A requested scope narrowed to what was granted, or `invalid_scope`. */
export function narrowScope(raw: string | undefined, granted: string): string {
  if (!raw?.trim()) return granted;
  const requested = parseScope(raw);
  if (!scopeWithin(requested, granted)) throw new OAuthError('invalid_scope', `The scope must be within the granted scope "${granted}".`);
  return requested;
}

/** The management-API scopes a granted scope string carries. */
export function principalScopes(scope: string): Set<Scope> {
  const items = new Set(scope.split(' '));
  return new Set(allScopes.filter((s) => items.has(s) || items.has('mcp')));
}

export interface Resources {
  /** The whole service (the root protected-resource document): stands for every API below. */
  service: string;
  /** The management REST API, default audience. */
  rest: string;
  mcp: string;
  all: string[];
  /**
   * Replaces the service identifier by every API it stands for, and an API's identifier
   * written with a trailing slash (`…/api/mcp/`) by the identifier itself.
   */
  expand(values: string[]): string[];
  /**
   * The audience of a request that names no resource: the MCP server when the requested
   * scope is only MCP's (`mcp`: clients from before RFC 8707 was required by MCP send no
   * `resource`, and would otherwise loop on a token /api/mcp refuses), else the management API.
   */
  defaultFor(rawScope: string | undefined): string[];
}

/** Whether a requested (unparsed) scope asks for MCP alone. */
export function onlyMcpScope(rawScope: string | undefined): boolean {
  const items = rawScope?.split(' ').filter(Boolean) ?? [];
  return items.length > 0 && items.every((s) => s === 'mcp');
}

export function resourcesOf(publicUrl: string): Resources {
  const rest = `${publicUrl}/api/v1`;
  const mcp = `${publicUrl}/api/mcp`;
  const all = [rest, mcp];
  const service = publicUrl;
  const expand = (values: string[]) =>
    values.flatMap((v) => (v === service || v === `${service}/` ? all : v === `${rest}/` ? [rest] : v === `${mcp}/` ? [mcp] : [v]));
  return { service, rest, mcp, all, expand, defaultFor: (rawScope) => (onlyMcpScope(rawScope) ? [mcp] : [rest]) };
}

/**
 * RFC 8707 `resource` values: each must be one of ours, exactly (absolute, no
 * fragment). Empty gives `fallback`; anything outside `allowed` is `invalid_target`.
 */
export function parseResources(values: string[], allowed: string[], fallback: string[]): string[] {
  if (values.length === 0) return fallback;
  const out: string[] = [];
  for (const value of values) {
    if (!allowed.includes(value)) {
      throw new OAuthError('invalid_target', `The resource "${value.slice(0, 200)}" is not one this server issues tokens for (${allowed.join(', ')}).`);
    }
    if (!out.includes(value)) out.push(value);
  }
  return out;
}
