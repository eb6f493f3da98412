/**
 * OAuth Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document; MCP
 * authorization 2025-11-25, "Client ID Metadata Documents"): a `client_id` that is an https URL
 * names a JSON document, served at that URL, describing the client. This file holds the rules
 * on the URL and on the document; client-id-documents.ts fetches and caches them.
 *
 * - The URL: https (plain http only to a loopback host under the development fetch policy, as
 *   every guarded fetch), a path, no fragment, no credentials, no `.`/`..` segments, at most
 *   1000 characters. A URL that breaks these is `invalid_request`.
 * - The document: a JSON object whose `client_id` equals the URL exactly, with `redirect_uris`,
 *   and no shared secret (`client_secret`, `client_secret_expires_at`, a `client_secret_*`
 *   method). Only public clients are accepted (`token_endpoint_auth_method` `none`, the default
 *   here): the document is public, so it cannot hold a secret, and private_key_jwt is not
 *   supported. Grants: `authorization_code` (PKCE, as every client) and `refresh_token`.
 *   The RFC 7591 fields are then checked by the same rules as a dynamic registration
 *   (validateClientMetadata); unknown fields are ignored. A document that breaks these is
 *   `invalid_client`.
 */
import { isLoopbackHost } from '../../config.js';
import { validateClientMetadata } from './client-metadata.js';
import { OAuthError } from './errors.js';
import type { ClientMetadata } from './model.js';

export const maxClientIdUrlLength = 1000;
const documentGrants = ['authorization_code', 'refresh_token'];
const forbiddenFields = ['client_secret', 'client_secret_expires_at'];

/** Whether a client_id is meant as a metadata document URL (then it must pass clientIdUrlProblem). */
export function looksLikeClientIdUrl(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/** Why a URL client_id cannot name a metadata document, or undefined when it can. */
export function clientIdUrlProblem(clientId: string, allowLoopbackHttp: boolean): string | undefined {
  if (clientId.length > maxClientIdUrlLength) return `must be at most ${maxClientIdUrlLength} characters`;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol === 'http:' && !(allowLoopbackHttp && isLoopbackHost(url.hostname))) return 'must use https';
  if (url.username || url.password) return 'must not contain credentials';
  if (clientId.includes('#')) return 'must not contain a fragment';
  const path = clientId.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').split('?')[0] ?? '';
  if (path === '' || path === '/') return 'must have a path (such as https://app.example/oauth/client.json)';
  if (path.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment))) return 'must not contain . or .. path segments';
  // The URL must be written the way it is parsed, or "equals the URL" would be ambiguous.
  if (url.href !== clientId) return `must be in normal form (${url.href.slice(0, 200)})`;
  return undefined;
}

const documentError = (description: string) => new OAuthError('invalid_client', `The client metadata document is not acceptable: ${description}`, 401);

/** Checks a fetched document against its URL; the client's metadata as a registration would hold it. */
export function validateClientIdDocument(clientId: string, document: unknown, redirectSchemes?: readonly string[]): ClientMetadata {
  if (!document || typeof document !== 'object' || Array.isArray(document)) throw documentError('it is not a JSON object.');
  const body = document as Record<string, unknown>;
  if (body.client_id !== clientId) {
    throw documentError(`its client_id must equal the URL it was fetched from (${clientId.slice(0, 200)}), exactly.`);
  }
  for (const field of forbiddenFields) if (field in body) throw documentError(`it must not contain ${field} (a public document holds no secret).`);
  const method = body.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') throw documentError('token_endpoint_auth_method must be "none": only public clients (PKCE) are accepted from a metadata document.');
  if (!Array.isArray(body.redirect_uris) || body.redirect_uris.length === 0) throw documentError('redirect_uris must list at least one redirect URI.');
  if (body.redirect_uris.length > 20) throw documentError('redirect_uris may list at most 20 URIs.');
  const grants = body.grant_types ?? ['authorization_code'];
  if (Array.isArray(grants) && grants.some((g) => !documentGrants.includes(g as string))) {
    throw documentError(`grant_types may contain only ${documentGrants.join(' and ')}.`);
  }
  try {
    return validateClientMetadata({ ...body, token_endpoint_auth_method: 'none', grant_types: grants }, false, redirectSchemes);
  } catch (error) {
    if (error instanceof OAuthError) throw documentError(error.message);
    throw error;
  }
}
