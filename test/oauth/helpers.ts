/**
 * Shared by the OAuth tests: a server that trusts a test ID-JAG issuer (an
 * inline JWKS), ID-JAGs minted with jose, oauth4webapi set up for plain-http
 * loopback, and small helpers for the HTML forms of the consent and claim pages.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import { expect } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';

export const testIssuer = 'https://idp.test.example';

export interface IdpKey {
  privateKey: CryptoKey;
  publicJwk: JWK;
  kid: string;
}

export async function idpKey(kid = `k-${randomUUID().slice(0, 8)}`): Promise<IdpKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' }, kid };
}

/** A server trusting `testIssuer` with the given key (inline JWKS), plus any extra issuers. */
export async function startOAuthServer(key: IdpKey, extraIssuers: unknown[] = [], env: Record<string, string> = {}): Promise<TestServer> {
  const issuers = [{ issuer: testIssuer, jwks: { keys: [key.publicJwk] } }, ...extraIssuers];
  return startServer({ TRUSTED_ID_JAG_ISSUERS: JSON.stringify(issuers), ...env });
}

export interface IdJagOptions {
  issuer?: string;
  audience?: string | string[];
  subject?: string;
  clientId?: string;
  typ?: string;
  jti?: string;
  iat?: number;
  exp?: number;
  claims?: Record<string, unknown>;
  key?: IdpKey;
}

export async function mintIdJag(key: IdpKey, audience: string, options: IdJagOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ ...(options.clientId ? { client_id: options.clientId } : {}), ...options.claims })
    .setProtectedHeader({ alg: 'ES256', typ: options.typ ?? 'oauth-id-jag+jwt', kid: (options.key ?? key).kid })
    .setIssuer(options.issuer ?? testIssuer)
    .setSubject(options.subject ?? `user-${randomUUID()}`)
    .setAudience(options.audience ?? audience)
    .setJti(options.jti ?? randomUUID())
    .setIssuedAt(options.iat ?? now)
    .setExpirationTime(options.exp ?? now + 300);
  return jwt.sign((options.key ?? key).privateKey);
}

/** oauth4webapi options for our plain-http loopback server. */
export const insecure = { [oauth.allowInsecureRequests]: true } as const;

export async function discover(baseUrl: string): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(baseUrl);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
}

export async function postJson(baseUrl: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
}

export async function postForm(baseUrl: string, path: string, fields: Record<string, string> | URLSearchParams, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: fields instanceof URLSearchParams ? fields : new URLSearchParams(fields),
    redirect: 'manual',
  });
  const text = await response.text();
  const json = /json/.test(response.headers.get('content-type') ?? '') && text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  return { status: response.status, headers: response.headers, text, body: json ?? {} };
}

/** Asserts an RFC 6749 error body with no-store caching. */
export function expectOAuthError(response: { status: number; headers: Headers; body: Record<string, unknown> }, status: number, error: string): void {
  expect({ status: response.status, error: response.body.error }).toEqual({ status, error });
  expect(typeof response.body.error_description).toBe('string');
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
}

/** The value of a hidden form field on an HTML page. */
export function hiddenField(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html);
  if (!match?.[1]) throw new Error(`no hidden field ${name} in page`);
  return match[1].replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
}

/** `name=value` pairs of the Set-Cookie headers, joined for a Cookie header. */
export function cookiesOf(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** Moves a claim's expiry into the past, directly in the test server's SQLite database. */
export function expireClaims(server: TestServer, clientId: string): void {
  const db = new Database(path.join(server.config.dataDir, 'groundwork.db'));
  try {
    db.prepare('UPDATE oauth_claims SET expires_at = ? WHERE client_id = ?').run(new Date(Date.now() - 1000).toISOString(), clientId);
  } finally {
    db.close();
  }
}

export const uniqueEmail = () => `agent-owner-${randomUUID().slice(0, 8)}@example.test`;

/** A person opens claim_uri and submits the confirmation code (the form's CSRF cookie and token included). */
export async function confirmClaim(baseUrl: string, claimUri: string, verification: string) {
  const page = await fetch(claimUri);
  const html = await page.text();
  return postForm(
    baseUrl,
    '/claim',
    { claim: hiddenField(html, 'claim'), csrf: hiddenField(html, 'csrf'), action: 'confirm', verification },
    { cookie: cookiesOf(page.headers) },
  );
}
