import { createHash } from 'node:crypto';

/**
 * The normal form a record's fingerprint is taken of: Unicode NFC, every run
 * of white space (any Unicode space, tabs, line breaks) collapsed to one
 * space, trimmed. Case and punctuation are kept: "Price: 5" and "price: 5"
 * are different records.
 */
export function normaliseText(text: string): string {
  return text.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** SHA-256 (lowercase hex) of the normalised text: the record's identity within a knowledge base. */
export function fingerprint(text: string): string {
  return createHash('sha256').update(normaliseText(text), 'utf8').digest('hex');
}

/** SHA-256 (lowercase hex) of raw bytes: the identity of an uploaded file. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}
