/**
 * RFC 7591 client metadata: what a dynamic registration may ask for, with
 * defaults, and redirect-URI matching. Redirect URIs must be absolute,
 * fragment-free, and https, http on a loopback IP literal or localhost
 * (RFC 8252 §7.3), a private-use scheme with a dot (RFC 8252 §7.1), or one
 * of the custom schemes of the allowlist OAUTH_REDIRECT_SCHEMES (the IDEs'
 * own: cursor, vscode, vscode-insiders, windsurf; docs/agents.md says why).
 * Schemes that run or read something in the browser (javascript:, data:,
 * file:, …) are never accepted, not even through the setting.
 * Matching is exact string comparison, except that a loopback URI matches
 * with any port (RFC 8252 §7.3: native apps get an ephemeral port).
 */
import { OAuthError } from './errors.js';
import type { ClientMetadata, TokenEndpointAuthMethod } from './model.js';
import { parseScope } from './scopes.js';

export const jwtBearerGrant = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const supportedGrantTypes = ['authorization_code', 'refresh_token', 'client_credentials', jwtBearerGrant];
export const supportedAuthMethods: TokenEndpointAuthMethod[] = ['none', 'client_secret_basic', 'client_secret_post'];
const stringFields = ['client_name', 'client_uri', 'logo_uri', 'tos_uri', 'policy_uri', 'software_id', 'software_version', 'application_type'] as const;
const uriFields = new Set(['client_uri', 'logo_uri', 'tos_uri', 'policy_uri']);

const metadataError = (description: string) => new OAuthError('invalid_client_metadata', description);

/** OAUTH_REDIRECT_SCHEMES' default: the schemes MCP clients in IDEs register their callbacks under. */
export const defaultRedirectSchemes: readonly string[] = ['cursor', 'vscode', 'vscode-insiders', 'windsurf'];
/** Schemes that run script, show inline content or reach local files, or that are not custom at all. */
const forbiddenSchemes = new Set(['javascript', 'data', 'file', 'vbscript', 'blob', 'about', 'filesystem', 'view-source', 'http', 'https', 'ws', 'wss', 'ftp']);
const schemeShape = /^[a-z][a-z0-9+.-]{0,63}$/;

/** Parses OAUTH_REDIRECT_SCHEMES (comma-separated scheme names, `none` for none); throws Error with what is wrong. */
export function parseRedirectSchemes(raw: string): string[] {
  if (raw.trim().toLowerCase() === 'none') return [];
  const schemes = raw.split(',').map((s) => s.trim().toLowerCase().replace(/:(\/\/)?$/, '')).filter(Boolean);
  for (const scheme of schemes) {
    if (!schemeShape.test(scheme)) throw new Error(`"${scheme.slice(0, 40)}" is not a URI scheme name`);
    if (forbiddenSchemes.has(scheme)) throw new Error(`"${scheme}" cannot be allowed as a custom redirect scheme`);
  }
  return [...new Set(schemes)];
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === '[::1]' || hostname === 'localhost';
}

/** Why a redirect URI is not acceptable, or undefined when it is. `schemes`: the allowlisted custom schemes. */
export function redirectUriProblem(value: unknown, schemes: readonly string[] = defaultRedirectSchemes): string | undefined {
  if (typeof value !== 'string' || value.length > 2000) return 'must be a string of at most 2000 characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URI';
  }
  if (url.hash || value.includes('#')) return 'must not contain a fragment';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') return isLoopbackHost(url.hostname) ? undefined : 'must use https (http only for loopback addresses)';
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (forbiddenSchemes.has(scheme)) return `must not use the ${scheme}: scheme`;
  if (schemes.includes(scheme)) return undefined;
  if (/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+$/.test(scheme)) return undefined;
  const custom = schemes.length > 0 ? `, one of the schemes ${schemes.map((s) => `${s}:`).join(', ')}` : '';
  return `must use https, loopback http${custom}, or a private-use scheme such as com.example.app:/callback`;
}

/** Whether `requested` matches a registered URI (exact, or loopback with any port). */
export function matchRedirectUri(registered: string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  let asked: URL;
  try {
    asked = new URL(requested);
  } catch {
    return false;
  }
  if (asked.protocol !== 'http:' || !isLoopbackHost(asked.hostname)) return false;
  return registered.some((candidate) => {
    try {
      const known = new URL(candidate);
      return (
        known.protocol === 'http:' &&
        known.hostname === asked.hostname &&
        known.pathname === asked.pathname &&
        known.search === asked.search &&
        known.username === asked.username &&
        known.password === asked.password
      );
    } catch {
      return false;
    }
  });
}

function stringList(value: unknown, field: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw metadataError(`${field} must be an array of strings.`);
  return value as string[];
}

/**
 * Validates and completes RFC 7591 metadata. `hasAccount` says whether the
 * registration came with an initial access token (needed for client_credentials,
 * whose tokens act for that account).
 */
export function validateClientMetadata(
  body: Record<string, unknown>,
  hasAccount: boolean,
  redirectSchemes: readonly string[] = defaultRedirectSchemes,
): ClientMetadata {
  const redirectUris = stringList(body.redirect_uris, 'redirect_uris') ?? [];
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri, redirectSchemes);
    if (problem) throw new OAuthError('invalid_redirect_uri', `The redirect URI "${uri.slice(0, 200)}" ${problem}.`);
  }
  const method = body.token_endpoint_auth_method ?? 'client_secret_basic';
  if (typeof method !== 'string' || !supportedAuthMethods.includes(method as TokenEndpointAuthMethod)) {
    throw metadataError(`token_endpoint_auth_method must be one of ${supportedAuthMethods.join(', ')}.`);
  }
  const grantTypes = stringList(body.grant_types, 'grant_types') ?? ['authorization_code'];
  for (const grant of grantTypes) {
    if (!supportedGrantTypes.includes(grant)) throw metadataError(`Unsupported grant type "${grant.slice(0, 100)}".`);
  }
  const responseTypes = stringList(body.response_types, 'response_types') ?? (grantTypes.includes('authorization_code') ? ['code'] : []);
  if (responseTypes.some((r) => r !== 'code')) throw metadataError('The only supported response type is "code".');
  if (grantTypes.includes('authorization_code') !== responseTypes.includes('code')) {
    throw metadataError('grant_types authorization_code and response_types code go together (RFC 7591 §2.1).');
  }
  if (grantTypes.includes('authorization_code') && redirectUris.length === 0) {
    throw new OAuthError('invalid_redirect_uri', 'redirect_uris is required for the authorization_code grant.');
  }
  if (grantTypes.includes('client_credentials')) {
    if (method === 'none') throw metadataError('client_credentials needs a confidential client (client_secret_basic or client_secret_post).');
    if (!hasAccount) {
      throw metadataError('client_credentials tokens act for an account: register with Authorization: Bearer <access token or account key> of that account.');
    }
  }
  const metadata: ClientMetadata = {
    redirect_uris: redirectUris,
    token_endpoint_auth_method: method as TokenEndpointAuthMethod,
    grant_types: grantTypes,
    response_types: responseTypes,
  };
  for (const field of stringFields) {
    const value = body[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > 500) throw metadataError(`${field} must be a string of at most 500 characters.`);
    if (uriFields.has(field) && !/^https?:\/\//.test(value)) throw metadataError(`${field} must be an http(s) URL.`);
    metadata[field] = value;
  }
  const contacts = stringList(body.contacts, 'contacts');
  if (contacts) metadata.contacts = contacts.slice(0, 10);
  if (body.scope !== undefined) {
    if (typeof body.scope !== 'string') throw metadataError('scope must be a space-separated string.');
    try {
      metadata.scope = parseScope(body.scope);
    } catch (error) {
      throw metadataError((error as Error).message);
    }
  }
  return metadata;
}
