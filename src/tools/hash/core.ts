/** Digests with Web Crypto (the same call in browsers and Node). */
import { bytesToBase64, bytesToHex, utf8Bytes } from '../shared/bytes.js';

export type HashAlgorithm = 'sha-1' | 'sha-256' | 'sha-384' | 'sha-512';

export interface HashInput {
  text: string;
  algorithm?: HashAlgorithm;
  encoding?: 'hex' | 'base64';
}

export interface HashOutput {
  algorithm: HashAlgorithm;
  encoding: 'hex' | 'base64';
  digest: string;
}

export async function run(input: HashInput): Promise<HashOutput> {
  const algorithm = input.algorithm ?? 'sha-256';
  const encoding = input.encoding ?? 'hex';
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest(algorithm.toUpperCase(), utf8Bytes(input.text)));
  return { algorithm, encoding, digest: encoding === 'hex' ? bytesToHex(digest) : bytesToBase64(digest) };
}
