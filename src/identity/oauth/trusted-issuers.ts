/**
 * `TRUSTED_ID_JAG_ISSUERS`: the identity providers whose ID-JAGs we accept, as
 * a JSON array. Each entry names the issuer exactly as it appears in the
 * JWT's `iss`, and its keys either by URL or inline:
 *
 *   [{"issuer":"https://idp.example","jwks_uri":"https://idp.example/jwks"},
 *    {"issuer":"https://login.partner.example","jwks":{"keys":[{"kty":"OKP","crv":"Ed25519","x":"…"}]}}]
 *
 * URLs must be https; plain http is accepted only for loopback hosts in
 * development mode. Inline keys must be public (no private members).
 */
import type { JSONWebKeySet } from 'jose';

export interface TrustedIssuer {
  issuer: string;
  jwksUri?: string;
  jwks?: JSONWebKeySet;
}

const loopback = (hostname: string) => hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
const privateMembers = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];

function checkUrl(value: unknown, what: string, allowLoopbackHttp: boolean): string {
  if (typeof value !== 'string') throw new Error(`${what} must be a string URL`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${what} is not a URL: "${value}"`);
  }
  if (url.hash) throw new Error(`${what} must not have a fragment`);
  if (url.protocol === 'https:') return value;
  if (url.protocol === 'http:' && allowLoopbackHttp && loopback(url.hostname)) return value;
  throw new Error(`${what} must use https${allowLoopbackHttp ? ' (http only for loopback hosts)' : ''}: "${value}"`);
}

/** Parses the variable's value; throws an Error whose message says what is wrong (config.ts names the variable). */
export function parseTrustedIssuers(raw: string, allowLoopbackHttp: boolean): TrustedIssuer[] {
  if (!raw.trim()) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('must be a JSON array such as [{"issuer":"https://idp.example","jwks_uri":"https://idp.example/jwks"}]');
  }
  if (!Array.isArray(parsed)) throw new Error('must be a JSON array of {"issuer", "jwks_uri" | "jwks"} objects');
  const seen = new Set<string>();
  return parsed.map((entry: unknown, i): TrustedIssuer => {
    const at = `entry ${i}`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) throw new Error(`${at} must be an object`);
    const { issuer, jwks_uri: jwksUri, jwks, ...rest } = entry as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length) throw new Error(`${at} has unknown member "${unknown[0]}" (allowed: issuer, jwks_uri, jwks)`);
    const iss = checkUrl(issuer, `${at}: issuer`, allowLoopbackHttp);
    if (seen.has(iss)) throw new Error(`${at}: issuer ${iss} is listed twice`);
    seen.add(iss);
    if ((jwksUri === undefined) === (jwks === undefined)) throw new Error(`${at} must have exactly one of jwks_uri or jwks`);
    if (jwksUri !== undefined) return { issuer: iss, jwksUri: checkUrl(jwksUri, `${at}: jwks_uri`, allowLoopbackHttp) };
    const keys = (jwks as { keys?: unknown } | null)?.keys;
    if (!Array.isArray(keys) || keys.length === 0) throw new Error(`${at}: jwks must be {"keys":[…]} with at least one key`);
    for (const key of keys) {
      if (!key || typeof key !== 'object' || typeof (key as { kty?: unknown }).kty !== 'string') throw new Error(`${at}: every key in jwks needs a "kty"`);
      if (privateMembers.some((m) => m in key)) throw new Error(`${at}: jwks must hold public keys only`);
    }
    return { issuer: iss, jwks: jwks as JSONWebKeySet };
  });
}
