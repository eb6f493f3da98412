import { randomBytes } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes drawn from the system's CSPRNG this many at a time and handed out one by one, each
 * zeroed as it is taken (as Node's own `randomUUID` caches its entropy): a call to `randomBytes`
 * costs ~5 µs whatever its size, and an upload of 20,000 records draws an id for each, on its
 * ingestion thread (docs/ingestion.md, "Record ids").
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let taken = 0;

function randomByte(): number {
  if (taken === pool.length) {
    pool = randomBytes(POOL_BYTES);
    taken = 0;
  }
  const byte = pool[taken] as number;
  pool[taken++] = 0;
  return byte;
}

/**
 * Random base62 text with `bits` bits of entropy (rejection sampling, so no
 * modulo bias). URL-safe, unguessable, and easy to double-click-select.
 */
export function randomBase62(bits = 128): string {
  const length = Math.ceil(bits / Math.log2(62));
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += alphabet[byte % 62];
  }
  return out;
}

/** A prefixed opaque identifier such as `kb_3xY…` (128 random bits). */
export function newId(prefix: 'kb' | 'src' | 'rec' | 'acc' | 'code' | 'key'): string {
  return `${prefix}_${randomBase62(128)}`;
}

/** This process's part of `uniqueToken`: 128 random bits, drawn once. */
const processToken = randomBase62(128);
let tokenSequence = 0;

/**
 * A token no other call in any process makes: this process's random part and a counter. For
 * uniqueness, not secrecy (a rate limiter's log entry, a knowledge base's stamp); it costs no
 * random bytes per call, which matters on the query path.
 */
export function uniqueToken(): string {
  tokenSequence += 1;
  return `${processToken}.${tokenSequence.toString(36)}`;
}
