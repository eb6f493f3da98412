/**
 * JWT decoding with jose. Decoding only reads Base64url JSON, so the output says "not verified"
 * unless an HMAC secret was given and the signature matched it.
 */
import { compactVerify, decodeJwt, decodeProtectedHeader, type JWTPayload, type ProtectedHeaderParameters } from 'jose';
import { utf8Bytes } from '../shared/bytes.js';
import { ToolInputError } from '../types.js';

export interface JwtDecodeInput {
  token: string;
  secret?: string;
}

export interface JwtDecodeOutput {
  status: string;
  verified: boolean;
  header: ProtectedHeaderParameters;
  payload: JWTPayload;
  /** exp, iat and nbf as ISO dates. */
  times: Record<string, string>;
  /** Whether exp is in the past; null without exp. */
  expired: boolean | null;
}

const hmacAlgorithms = ['HS256', 'HS384', 'HS512'];

function decode(token: string): { header: ProtectedHeaderParameters; payload: JWTPayload } {
  if (token.split('.').length !== 3) {
    throw new ToolInputError(`A JWT has three parts separated by dots; this one has ${token.split('.').length}.`, { field: 'token' });
  }
  try {
    return { header: decodeProtectedHeader(token), payload: decodeJwt(token) };
  } catch (error) {
    throw new ToolInputError(`The token cannot be decoded: ${(error as Error).message}`, { field: 'token' });
  }
}

function claimTimes(payload: JWTPayload): Record<string, string> {
  const times: Record<string, string> = {};
  for (const claim of ['exp', 'nbf', 'iat'] as const) {
    const value = payload[claim];
    if (typeof value === 'number' && Number.isFinite(value)) {
      const date = new Date(value * 1000);
      if (!Number.isNaN(date.getTime())) times[claim] = date.toISOString();
    }
  }
  return times;
}

async function verify(token: string, alg: unknown, secret: string): Promise<string> {
  if (typeof alg !== 'string' || !hmacAlgorithms.includes(alg)) {
    throw new ToolInputError(`Only HS256, HS384 and HS512 tokens can be verified with a secret; this one is ${String(alg)}.`, { field: 'secret' });
  }
  try {
    // compactVerify checks the signature only: an expired token can still be shown as authentic.
    await compactVerify(token, utf8Bytes(secret), { algorithms: [alg] });
    return `verified: the ${alg} signature matches the secret`;
  } catch {
    return 'decoded, not verified: the signature does NOT match this secret';
  }
}

export async function run(input: JwtDecodeInput): Promise<JwtDecodeOutput> {
  const token = input.token.trim().replace(/^Bearer\s+/i, '');
  const { header, payload } = decode(token);
  const status = input.secret ? await verify(token, header.alg, input.secret) : 'decoded, not verified';
  const exp = payload.exp;
  return {
    status,
    verified: status.startsWith('verified'),
    header,
    payload,
    times: claimTimes(payload),
    expired: typeof exp === 'number' ? exp * 1000 <= Date.now() : null,
  };
}
