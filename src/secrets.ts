import { createCipheriv, createDecipheriv, hash, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * SHA-256 hex of a high-entropy secret; what is stored instead of the secret. `crypto.hash`
 * (Node 20.12+) is the one-shot form of createHash/update/digest: the same digest for a third of
 * the CPU, and every query hashes its key.
 */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/**
 * A 256-bit key for one purpose, derived from the deployment secret by HKDF-SHA-256 (RFC 5869):
 * each use of SECRET_KEY (sealing, token derivation) gets its own key, never the secret itself.
 */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), 'groundwork', purpose, 32));
}

/** Constant-time string comparison (length is not secret here: both sides are fixed-length digests or tokens). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** SECRET_KEY: at least this many characters (a generated one is 32 random bytes, 43 base64url characters). */
export const minSecretKeyLength = 32;
/** Where a development instance keeps its generated secret when SECRET_KEY is unset. */
export const secretKeyFileName = 'secret-key';

/** A start-up failure about the deployment secret; main.ts prints the message and exits. */
export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyError';
  }
}

export interface SecretKeySource {
  /** SECRET_KEY, if set. */
  secretKey: string | undefined;
  dataDir: string;
  nodeEnv: string | undefined;
}

/**
 * The deployment secret. SECRET_KEY when set; NODE_ENV=production without it
 * stops start-up. Otherwise (development, or a trial run) a random secret is
 * created once in `DATA_DIR/secret-key` (mode 0600) and read on later starts,
 * so a restart keeps working; `warn` says so. Instances sharing a PostgreSQL
 * database must all be given the same SECRET_KEY.
 */
export function loadSecretKey(source: SecretKeySource, warn: (message: string) => void = () => {}): string {
  if (source.secretKey !== undefined) return source.secretKey;
  if (source.nodeEnv === 'production') {
    throw new SecretKeyError(
      `SECRET_KEY is required when NODE_ENV=production: it encrypts the token signing keys at rest (at least ${minSecretKeyLength} characters, e.g. \`openssl rand -base64 32\`; the same on every instance).`,
    );
  }
  const file = path.join(source.dataDir, secretKeyFileName);
  try {
    fs.mkdirSync(source.dataDir, { recursive: true });
    // `wx`: if two processes race, one creates the file and the other reads it.
    fs.writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
    warn(`SECRET_KEY is not set: generated a secret in ${file}. Set SECRET_KEY in production, the same on every instance.`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    warn(`SECRET_KEY is not set: using the generated secret in ${file}.`);
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < minSecretKeyLength) throw new SecretKeyError(`${file} holds fewer than ${minSecretKeyLength} characters; remove it or set SECRET_KEY.`);
  return secret;
}

/** Thrown when a sealed value does not open with this secret (wrong SECRET_KEY, or the value was altered). */
export class SealError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealError';
  }
}

const envelopeVersion = 'v1';
const ivBytes = 12;
const tagBytes = 16;

/**
 * AES-256-GCM with a key-encryption key derived by HKDF-SHA-256 (RFC 5869)
 * from the deployment secret. A sealed value is `v1:` + base64url(iv ‖ tag ‖
 * ciphertext), with a fresh 96-bit iv each time. `context` is bound as
 * additional authenticated data, so a value moved to another row (another
 * kid) does not open. The version prefix leaves room for another scheme or a
 * secret rotation later.
 */
export class Sealer {
  private readonly kek: Buffer;

  constructor(secret: string) {
    this.kek = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), 'groundwork', 'groundwork signing-key encryption v1', 32));
  }

  static isSealed(value: string): boolean {
    return /^v\d+:/.test(value);
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', this.kek, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${envelopeVersion}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  open(sealed: string, context: string): string {
    const colon = sealed.indexOf(':');
    if (sealed.slice(0, colon) !== envelopeVersion) throw new SealError(`unknown envelope version "${sealed.slice(0, Math.max(colon, 0))}"`);
    const raw = Buffer.from(sealed.slice(colon + 1), 'base64url');
    if (raw.length <= ivBytes + tagBytes) throw new SealError('the sealed value is truncated');
    const decipher = createDecipheriv('aes-256-gcm', this.kek, raw.subarray(0, ivBytes));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(ivBytes, ivBytes + tagBytes));
    try {
      return Buffer.concat([decipher.update(raw.subarray(ivBytes + tagBytes)), decipher.final()]).toString('utf8');
    } catch {
      throw new SealError('the sealed value does not open with this secret');
    }
  }
}
