import { randomBytes } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random base62 text with `bits` bits of entropy (rejection sampling, so no
 * modulo bias). URL-safe, unguessable, and easy to double-click-select.
 */
export function randomBase62(bits = 128): string {
  const length = Math.ceil(bits / Math.log2(62));
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += alphabet[byte % 62];
    }
  }
  return out;
}

/** A prefixed opaque identifier such as `kb_3xY…` (128 random bits). */
export function newId(prefix: 'kb' | 'src' | 'rec' | 'acc' | 'code' | 'key'): string {
  return `${prefix}_${randomBase62(128)}`;
}
