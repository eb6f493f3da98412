/**
 * The private half of a stored signing key, encrypted at rest (both SQL
 * stores). The `private_jwk` column holds `v1:…` (see Sealer in secrets.ts),
 * as text in SQLite and as a JSON string in PostgreSQL's jsonb column — no
 * schema change. A row written before encryption holds the JWK in plain JSON:
 * it is still read, and the store seals it in place on first load
 * (compare-and-set, so two instances upgrading at once agree).
 */
import { SealError, Sealer } from '../../secrets.js';

/** The secret in use does not open a stored key: start-up stops instead of creating a new key (which would log every agent out). */
export class SigningKeySecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SigningKeySecretError';
  }
}

interface KeyId {
  kid: string;
  purpose: string;
}

/** Binds a sealed value to its row: moved to another kid or purpose, it no longer opens. */
const context = (key: KeyId) => `signing_keys:${key.purpose}:${key.kid}`;

/** True when the column value is still a plaintext JWK (a row from before encryption). */
export function isPlainPrivateJwk(raw: unknown): boolean {
  return typeof raw === 'object' ? raw !== null : typeof raw === 'string' && !Sealer.isSealed(raw);
}

export function sealPrivateJwk(jwk: Record<string, unknown>, key: KeyId, sealer: Sealer): string {
  return sealer.seal(JSON.stringify(jwk), context(key));
}

/** The JWK from the column value as the driver returns it (text, a parsed jsonb object, or a jsonb string). */
export function openPrivateJwk(raw: unknown, key: KeyId, sealer: Sealer | undefined): Record<string, unknown> {
  if (typeof raw === 'object' && raw !== null) return raw as Record<string, unknown>;
  const text = String(raw);
  if (!Sealer.isSealed(text)) return JSON.parse(text) as Record<string, unknown>;
  if (!sealer) {
    throw new SigningKeySecretError(`The ${key.purpose} signing key ${key.kid} is encrypted, but the store was opened without SECRET_KEY.`);
  }
  try {
    return JSON.parse(sealer.open(text, context(key))) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof SealError)) throw error;
    throw new SigningKeySecretError(
      `SECRET_KEY does not decrypt the stored ${key.purpose} signing key ${key.kid} (${error.message}). ` +
        'Start with the SECRET_KEY the keys were encrypted with (every instance needs the same one). ' +
        'Groundwork does not replace the key by itself: a new key would invalidate every token and signature issued with the old one.',
    );
  }
}
