/**
 * Keys as JWKs: RFC 7638 thumbprints (the Web Bot Auth `keyid`), and RFC 9421
 * signers and verifiers over node:crypto for the two algorithms Web Bot Auth
 * uses: `ed25519` and `rsa-pss-sha512`.
 */
import { constants, createPrivateKey, createPublicKey, generateKeyPairSync, type JsonWebKey as NodeJwk, type KeyObject, sign, verify } from 'node:crypto';
import type { SignerSync, Verifier } from 'http-message-sig';
import { calculateJwkThumbprint, type JWK } from 'jose';

/** The public members of an Ed25519, EC or RSA key. */
export type PublicJwk = {
  kty: string;
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
};

export function thumbprint(jwk: JWK | PublicJwk): Promise<string> {
  return calculateJwkThumbprint(jwk as JWK, 'sha256');
}

/** The RFC 9421 algorithm name for a public or private key, or undefined when Web Bot Auth does not use it. */
function algorithmOf(key: KeyObject): 'ed25519' | 'rsa-pss-sha512' | undefined {
  if (key.asymmetricKeyType === 'ed25519') return 'ed25519';
  if (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss') return 'rsa-pss-sha512';
  return undefined;
}

const pss = { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 };

/** Undefined when the JWK is not a usable Ed25519 or RSA public key. */
export function verifierFor(jwk: JWK | PublicJwk): Verifier | undefined {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: publicPart(jwk) as NodeJwk, format: 'jwk' });
  } catch {
    return undefined;
  }
  const algorithm = algorithmOf(key);
  if (algorithm === undefined) return undefined;
  return Object.freeze({
    algorithm,
    verify(data: Uint8Array, signature: Uint8Array): boolean {
      try {
        return algorithm === 'ed25519' ? verify(null, data, key, signature) : verify('sha512', data, { key, ...pss }, signature);
      } catch {
        return false;
      }
    },
  });
}

export function signerFor(privateJwk: JWK): SignerSync {
  const key = createPrivateKey({ key: privateJwk as NodeJwk, format: 'jwk' });
  const algorithm = algorithmOf(key);
  if (algorithm === undefined) throw new Error(`unsupported signing key type ${String(key.asymmetricKeyType)}`);
  return Object.freeze({
    algorithm,
    sign: (data: Uint8Array) => new Uint8Array(algorithm === 'ed25519' ? sign(null, data, key) : sign('sha512', data, { key, ...pss })),
  });
}

/** The public members of a JWK (drops `d`, RSA CRT values and anything unknown). */
export function publicPart(jwk: JWK | PublicJwk): PublicJwk {
  const { kty, crv, x, y, n, e } = jwk;
  const out: PublicJwk = { kty: String(kty) };
  const members = { crv, x, y, n, e };
  for (const name of ['crv', 'x', 'y', 'n', 'e'] as const) {
    const value = members[name];
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

export function generateEd25519(): { publicJwk: PublicJwk; privateJwk: JWK } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return { publicJwk: publicKey.export({ format: 'jwk' }) as PublicJwk, privateJwk: privateKey.export({ format: 'jwk' }) as JWK };
}
