/**
 * The access-token signing keys (purpose `oauth`), kept in the store so every
 * instance signs and verifies with the same keys. Ed25519 (`EdDSA`), `kid` =
 * RFC 7638 thumbprint. The first start creates the key (`addSigningKeyIfNone`,
 * race-free across instances); `rotate()` adds a new active key and retires the
 * old one, which stays in the JWKS and keeps verifying for `retiredKeyGraceMs`
 * (longer than any access token lives). Each instance re-reads the key list
 * every minute, and at once when a token names a kid it does not know (once
 * per unknown kid per half minute, so made-up kids cannot hammer the store).
 */
import { LRUCache } from 'lru-cache';
import { calculateJwkThumbprint, type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import type { SigningKeyStore, StoredSigningKey } from '../../ports/storage.js';

export const signingAlg = 'EdDSA';
const purpose = 'oauth';
const refreshMs = 60_000;
const missRetryMs = 30_000;
export const retiredKeyGraceMs = 3600_000;

export interface PublicJwk extends JWK {
  kid: string;
  alg: string;
  use: 'sig';
}

export async function newSigningKey(createdAt: string): Promise<StoredSigningKey> {
  const { publicKey, privateKey } = await generateKeyPair(signingAlg, { crv: 'Ed25519', extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const privateJwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
  return { kid, purpose, alg: signingAlg, publicJwk, privateJwk, createdAt, retiredAt: null };
}

export class OAuthKeys {
  private loaded: { keys: StoredSigningKey[]; at: number } | undefined;
  // Not a bounded cache: one imported CryptoKey per key of our own (a handful, rotated rarely).
  private readonly imported = new Map<string, Promise<CryptoKey>>();
  /** Unknown kids recently looked up in the store, with when; the least recently missed dropped past 1,000. */
  private readonly misses = new LRUCache<string, number>({ max: 1000 });

  constructor(
    private readonly store: SigningKeyStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Creates the first key unless one exists (called at start-up). */
  async ensureKey(): Promise<void> {
    const keys = await this.list(true);
    if (keys.some((k) => k.retiredAt === null)) return;
    await this.store.addSigningKeyIfNone(await newSigningKey(this.now().toISOString()));
    await this.list(true);
  }

  /** Adds a new active key; the previous one is retired but still verifies for a while. */
  async rotate(): Promise<string> {
    const key = await newSigningKey(this.now().toISOString());
    await this.store.rotateSigningKey(key);
    await this.list(true);
    return key.kid;
  }

  private async list(force = false): Promise<StoredSigningKey[]> {
    const at = Date.now();
    if (force || !this.loaded || at - this.loaded.at > refreshMs) {
      this.loaded = { keys: await this.store.listSigningKeys(purpose), at };
    }
    return this.loaded.keys;
  }

  private usable(key: StoredSigningKey): boolean {
    return key.retiredAt === null || Date.parse(key.retiredAt) + retiredKeyGraceMs > this.now().getTime();
  }

  private importKey(key: StoredSigningKey, which: 'publicJwk' | 'privateJwk'): Promise<CryptoKey> {
    const cacheKey = `${key.kid}:${which}`;
    let imported = this.imported.get(cacheKey);
    if (!imported) {
      imported = importJWK(key[which] as JWK, key.alg) as Promise<CryptoKey>;
      this.imported.set(cacheKey, imported);
    }
    return imported;
  }

  /** The active key, for signing. */
  async signer(): Promise<{ kid: string; alg: string; key: CryptoKey }> {
    let active = (await this.list()).find((k) => k.retiredAt === null);
    if (!active) {
      await this.ensureKey();
      active = (await this.list(true)).find((k) => k.retiredAt === null);
    }
    if (!active) throw new Error('no active oauth signing key');
    return { kid: active.kid, alg: active.alg, key: await this.importKey(active, 'privateJwk') };
  }

  /** The public key for a kid, if it is ours and still usable. */
  async verificationKey(kid: string | undefined): Promise<CryptoKey | undefined> {
    if (!kid) return undefined;
    let key = (await this.list()).find((k) => k.kid === kid);
    const missedAt = this.misses.get(kid);
    if (!key && (missedAt === undefined || Date.now() - missedAt > missRetryMs)) {
      this.misses.set(kid, Date.now());
      key = (await this.list(true)).find((k) => k.kid === kid);
    }
    return key && this.usable(key) ? this.importKey(key, 'publicJwk') : undefined;
  }

  /** The JWKS document: the active key and retired keys still within their grace period. */
  async jwks(): Promise<{ keys: PublicJwk[] }> {
    const keys = (await this.list()).filter((k) => this.usable(k));
    return {
      keys: keys.map((k) => {
        const { kty, crv, x, y, n, e } = k.publicJwk as JWK;
        return { ...JSON.parse(JSON.stringify({ kty, crv, x, y, n, e })), kid: k.kid, alg: k.alg, use: 'sig' } as PublicJwk;
      }),
    };
  }
}
