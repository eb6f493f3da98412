/**
 * The HTTP Message Signatures Directory format: a JWKS served as
 * `application/http-message-signatures-directory+json`, with `Content-Digest`
 * and one response signature per key (tag `http-message-signatures-directory`,
 * covering `"@authority";req` and `content-digest`). Used both to publish our
 * own directory and to read and check the directories of bots.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { appendSignature, component, createSignatureSync, type ResponseDescriptor, verifySignature } from 'http-message-sig';
import type { JWK } from 'jose';
import { type BareItem, parseDictionary } from 'structured-headers';
import { DirectoryFetchError } from './errors.js';
import { type PublicJwk, publicPart, signerFor, thumbprint, verifierFor } from './jwk.js';
import { ALGORITHMS } from './verify-request.js';

export const DIRECTORY_MEDIA_TYPE = 'application/http-message-signatures-directory+json';
export const DIRECTORY_TAG = 'http-message-signatures-directory';

export interface DirectoryKey {
  /** RFC 7638 thumbprint (what request signatures name as `keyid`). */
  keyid: string;
  jwk: PublicJwk;
}

export interface SigningKey extends DirectoryKey {
  privateJwk: JWK;
}

/** The usable keys of a JWKS document, by thumbprint (a published `kid` is not trusted). */
export async function parseKeyDirectory(body: string, maxKeys = 32): Promise<DirectoryKey[]> {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    throw new DirectoryFetchError('the key directory is not JSON');
  }
  const keys = (doc as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new DirectoryFetchError('the key directory has no "keys" array');
  const out: DirectoryKey[] = [];
  for (const entry of keys.slice(0, maxKeys)) {
    if (typeof entry !== 'object' || entry === null || typeof (entry as JWK).kty !== 'string') continue;
    const jwk = publicPart(entry as JWK);
    if (!verifierFor(jwk)) continue;
    out.push({ keyid: await thumbprint(jwk), jwk });
  }
  return out;
}

export function contentDigest(body: string | Uint8Array): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}

/** Whether a Content-Digest header matches the body (sha-256 or sha-512 members; unknown algorithms are ignored). */
export function contentDigestMatches(header: string, body: string | Uint8Array): boolean {
  let dictionary: Map<string, unknown>;
  try {
    dictionary = parseDictionary(header);
  } catch {
    return false;
  }
  let checked = false;
  for (const [algorithm, member] of dictionary) {
    const value = (member as [BareItem, unknown])[0];
    if ((algorithm !== 'sha-256' && algorithm !== 'sha-512') || !(value instanceof ArrayBuffer)) continue;
    const expected = createHash(algorithm.replace('-', '')).update(body).digest();
    const given = Buffer.from(value);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    checked = true;
  }
  return checked;
}

/** The directory body: `{"keys":[{"kty","crv","kid","x","use":"sig"}…]}` with `kid` = thumbprint. */
export function directoryBody(keys: readonly DirectoryKey[]): string {
  return JSON.stringify({
    keys: keys.map(({ keyid, jwk }) => {
      const { kty, crv, ...rest } = jwk;
      return { kty, ...(crv ? { crv } : {}), kid: keyid, ...rest, use: 'sig' };
    }),
  });
}

export interface DirectorySignatureInput {
  body: string;
  keys: readonly SigningKey[];
  /** The URL the directory was requested at; its authority is what the signatures bind. */
  targetUri: string;
  created: number;
  expires: number;
}

/** `Content-Digest`, `Signature-Input` and `Signature` for a directory response: one signature per key, labelled `binding`, `binding1`, … */
export function signDirectoryResponse(input: DirectorySignatureInput): Record<'content-digest' | 'signature-input' | 'signature', string> {
  const digest = contentDigest(input.body);
  const message: ResponseDescriptor = {
    kind: 'response',
    status: 200,
    fields: [{ name: 'content-digest', value: digest }],
    request: { kind: 'request', method: 'GET', targetUri: input.targetUri, fields: [] },
  };
  let headers = new Headers();
  input.keys.forEach((key, index) => {
    const fields = createSignatureSync(message, {
      label: index === 0 ? 'binding' : `binding${index}`,
      components: [component('@authority', { req: true }), 'content-digest'],
      parameters: { created: input.created, expires: input.expires, keyid: key.keyid, tag: DIRECTORY_TAG },
      signer: signerFor(key.privateJwk),
    });
    headers = appendSignature(headers, fields);
  });
  return { 'content-digest': digest, 'signature-input': headers.get('signature-input') ?? '', signature: headers.get('signature') ?? '' };
}

export interface DirectoryResponse {
  targetUri: string;
  headers: readonly (readonly [string, string])[];
  body: string;
}

export interface DirectoryVerification {
  /** Whether the response carried any signature tagged `http-message-signatures-directory`. */
  signed: boolean;
  /** Thumbprints of the keys whose binding signature verified. */
  verified: string[];
  /** Why the other directory signatures did not verify. */
  failures: string[];
}

/** Checks the directory's own response signatures against the keys it publishes. */
export async function verifyDirectoryResponse(response: DirectoryResponse, keys: readonly DirectoryKey[], now: number): Promise<DirectoryVerification> {
  const header = (name: string) => {
    const values = response.headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);
    return values.length > 0 ? values.join(', ') : undefined;
  };
  const result: DirectoryVerification = { signed: false, verified: [], failures: [] };
  const input = header('signature-input');
  if (input === undefined) return result;
  let labels: [string, string][];
  try {
    labels = [...parseDictionary(input)]
      .filter(([, member]) => member[1].get('tag') === DIRECTORY_TAG)
      .map(([label, member]) => [label, String(member[1].get('keyid') ?? '')]);
  } catch {
    return { signed: true, verified: [], failures: ['Signature-Input is malformed'] };
  }
  result.signed = labels.length > 0;
  const digest = header('content-digest');
  const fields = response.headers
    .filter(([n]) => ['content-digest', 'signature', 'signature-input'].includes(n.toLowerCase()))
    .map(([name, value]) => ({ name, value }));
  const message: ResponseDescriptor = {
    kind: 'response',
    status: 200,
    fields,
    request: { kind: 'request', method: 'GET', targetUri: response.targetUri, fields: [] },
  };
  for (const [label, keyid] of labels) {
    const key = keys.find((k) => k.keyid === keyid);
    if (!key) {
      result.failures.push(`${label}: keyid is not a key of this directory`);
      continue;
    }
    try {
      const verified = await verifySignature(message, {
        label,
        policy: { algorithms: ALGORITHMS, requiredComponents: [component('@authority', { req: true })], requiredParameters: ['keyid'], clockSkew: 5, now },
        resolveVerifier: () => verifierFor(key.jwk) ?? Promise.reject(new Error('unusable key')),
      });
      const coversDigest = verified.components.some((c) => c.name === 'content-digest');
      if (coversDigest && (digest === undefined || !contentDigestMatches(digest, response.body)))
        result.failures.push(`${label}: Content-Digest does not match the body`);
      else result.verified.push(keyid);
    } catch (err) {
      result.failures.push(`${label}: ${(err as Error).message}`);
    }
  }
  return result;
}
