/**
 * The service's own HTTP Message Signatures Directory: its Ed25519 key(s) of
 * purpose `web-bot-auth` from the signing-key store (created on first use,
 * one per deployment, kid = RFC 7638 thumbprint), published as a JWKS with
 * `Content-Digest` and one binding signature per key over our public
 * authority. The authority is PUBLIC_URL's, never the request's Host header:
 * signing whatever Host a caller sends would let anyone obtain our signature
 * binding our keys to their domain.
 */
import type { JWK } from 'jose';
import type { SigningKeyStore, StoredSigningKey } from '../../ports/storage.js';
import { DIRECTORY_MEDIA_TYPE, directoryBody, type SigningKey, signDirectoryResponse } from './directory.js';
import { generateEd25519, publicPart, thumbprint } from './jwk.js';
import { DIRECTORY_PATH } from './signature-agent.js';

export const KEY_PURPOSE = 'web-bot-auth';

export interface OwnDirectoryOptions {
  /** Milliseconds since the epoch. */
  now?: () => number;
  /** Lifetime of the response signatures (default 1 hour); the response may be cached for 5 minutes. */
  signatureSeconds?: number;
  /** How long the key list is reused before the store is read again (rotation by another instance). */
  reloadMs?: number;
}

export interface DirectoryHttpResponse {
  body: string;
  headers: Record<string, string>;
}

export class OwnDirectory {
  private loaded: { at: number; keys: Promise<SigningKey[]> } | undefined;
  private readonly now: () => number;

  constructor(
    private readonly store: SigningKeyStore,
    private readonly publicUrl: string,
    private readonly options: OwnDirectoryOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  get url(): string {
    return `${this.publicUrl}${DIRECTORY_PATH}`;
  }

  /** Active and retired keys (retired ones still verify), newest first. */
  keys(): Promise<SigningKey[]> {
    const now = this.now();
    if (!this.loaded || now - this.loaded.at > (this.options.reloadMs ?? 60_000)) {
      const keys = this.load();
      this.loaded = { at: now, keys };
      keys.catch(() => {
        if (this.loaded?.keys === keys) this.loaded = undefined;
      });
    }
    return this.loaded.keys;
  }

  private async load(): Promise<SigningKey[]> {
    let stored = await this.store.listSigningKeys(KEY_PURPOSE);
    if (!stored.some((k) => k.retiredAt === null)) {
      const { publicJwk, privateJwk } = generateEd25519();
      const key: StoredSigningKey = {
        kid: await thumbprint(publicJwk),
        purpose: KEY_PURPOSE,
        alg: 'EdDSA',
        publicJwk: publicPart(publicJwk),
        privateJwk: privateJwk as Record<string, unknown>,
        createdAt: new Date(this.now()).toISOString(),
        retiredAt: null,
      };
      await this.store.addSigningKeyIfNone(key);
      stored = await this.store.listSigningKeys(KEY_PURPOSE);
    }
    return stored.map((k) => ({ keyid: k.kid, jwk: publicPart(k.publicJwk as JWK), privateJwk: k.privateJwk as JWK }));
  }

  async response(): Promise<DirectoryHttpResponse> {
    const keys = await this.keys();
    const body = directoryBody(keys);
    const created = Math.floor(this.now() / 1000);
    const signed = signDirectoryResponse({ body, keys, targetUri: this.url, created, expires: created + (this.options.signatureSeconds ?? 3600) });
    return {
      body,
      headers: {
        'content-type': DIRECTORY_MEDIA_TYPE,
        'cache-control': 'public, max-age=300',
        'access-control-allow-origin': '*',
        ...signed,
      },
    };
  }
}
