import { createHash, timingSafeEqual } from 'node:crypto';

/** SHA-256 hex of a high-entropy secret; what is stored instead of the secret. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time string comparison (length is not secret here: both sides are fixed-length digests or tokens). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
