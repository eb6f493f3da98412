/**
 * The secrets of a claim. `claim_id` (`gw_claim_` + 256 random bits) is the
 * agent's bearer secret for POST /oauth/claim. The human code in claim_uri
 * (`XXXX-XXXX-XXXX`, 60 bits from a 32-letter alphabet without look-alikes)
 * opens the claim page for a person: with 2^60 codes, guessing any live one
 * at the whole-service IP rate is hopeless (it was 40 bits, which a botnet
 * could sweep). The e-mailed confirmation code (`XXX-XXX`, 30 bits) proves the
 * address; it gets 5 attempts per claim (ClaimService). All three are stored
 * as SHA-256 only.
 */
import { randomInt } from 'node:crypto';
import { randomBase62 } from '../../ids.js';
import { hashSecret } from '../../secrets.js';

const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function letters(n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

export const newClaimId = (): string => `gw_claim_${randomBase62(256)}`;
export const claimHash = (claimId: string): string => hashSecret(claimId);

/** People may type codes in lower case, with spaces or dashes. */
export const normaliseHumanCode = (raw: string): string => raw.toUpperCase().replace(/[\s-]/g, '').slice(0, 32);

/** Letters in a human code: 12 × 5 bits = 60 bits. */
export const humanCodeLength = 12;

export function newHumanCode(): { shown: string; hash: string } {
  const code = letters(humanCodeLength);
  return { shown: `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`, hash: humanCodeHash(code) };
}

/** Whether a typed code has the shape of a current human code (older, 8-letter codes are no longer accepted). */
export const isHumanCode = (raw: string): boolean => normaliseHumanCode(raw).length === humanCodeLength;

export const humanCodeHash = (raw: string): string => hashSecret(`claim-code:${normaliseHumanCode(raw)}`);

export function newVerificationCode(hashOfClaim: string): { shown: string; hash: string } {
  const code = letters(6);
  return { shown: `${code.slice(0, 3)}-${code.slice(3)}`, hash: verificationHash(hashOfClaim, code) };
}

export const verificationHash = (hashOfClaim: string, raw: string): string => hashSecret(`${hashOfClaim}:${normaliseHumanCode(raw)}`);
