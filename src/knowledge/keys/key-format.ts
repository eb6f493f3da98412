/**
 * Knowledge-base query keys: `gw_live_` + 32 base62 characters (~190 random
 * bits). High entropy makes a plain SHA-256 the right storage form (a slow KDF
 * would add nothing and cap verification throughput); the fixed shape lets
 * the service refuse malformed keys before any lookup, and lets secret
 * scanners recognise leaked ones.
 */
import { randomBase62 } from '../../ids.js';
import { hashSecret } from '../../secrets.js';

export const keyPrefix = 'gw_live_';
const keyShape = /^gw_live_[0-9A-Za-z]{32}$/;

export function generateKey(): { key: string; hash: string; display: string } {
  const key = `${keyPrefix}${randomBase62(190).slice(0, 32)}`;
  return { key, hash: hashSecret(key), display: key.slice(0, keyPrefix.length + 4) };
}

export function looksLikeKey(value: string): boolean {
  return keyShape.test(value);
}
