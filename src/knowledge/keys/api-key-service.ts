/**
 * Knowledge-base query keys: generate (the full key is returned once, only its
 * SHA-256 is stored), list, change the whitelist, revoke; and verification on
 * the query path. Verification is served from an in-process cache that stays
 * exact across instances: every query reads its knowledge base's row anyway
 * (for the content version), and that row carries `keysVersion`, which every
 * key change bumps — a cached key from an older version is looked up again.
 */
import { LRUCache } from 'lru-cache';
import type { ApiKeyPatch, KeyStore } from '../../ports/storage.js';
import { DomainError } from '../../errors.js';
import { newId } from '../../ids.js';
import { hashSecret } from '../../secrets.js';
import type { MaybePromise } from '../../maybe-promise.js';
import type { ApiKey, KnowledgeBase } from '../model.js';
import { normaliseDomains } from './domains.js';
import { generateKey, looksLikeKey } from './key-format.js';

export interface CreatedKey {
  key: ApiKey;
  /** The full key: shown once and never stored for a secret key; kept sealed for a publishable one. */
  secret: string;
}

interface CacheEntry {
  key: ApiKey;
  keysVersion: number;
}

const maxCached = 10_000;
export const maxKeysPerKnowledgeBase = 20;

export class ApiKeyService {
  /** Verified keys by secret hash, least recently used dropped past `maxCached`; owned by this service. */
  private readonly cache = new LRUCache<string, CacheEntry>({ max: maxCached });

  constructor(private readonly store: KeyStore) {}

  /**
   * `publishable`: a key for a website widget (docs/widget-keys.md). It is public by nature (it is in
   * every embedding page's HTML; the whitelist protects it), so the store keeps it sealed and the
   * owner sees it again in the list. A secret key (the default) is stored as a hash only.
   */
  async create(
    ownerId: string,
    ragId: string,
    input: { name?: string | null | undefined; allowedDomains: string[]; publishable?: boolean | undefined },
  ): Promise<CreatedKey> {
    const allowedDomains = normaliseDomains(input.allowedDomains);
    const generated = generateKey();
    // The limit is decided by the store, in the insert's transaction: a check
    // here first would let parallel requests all pass it (issue 11 item 4).
    const created = await this.store.createApiKey(
      ownerId,
      ragId,
      {
        keyId: newId('key'),
        name: input.name?.trim() || null,
        prefix: generated.display,
        keyHash: generated.hash,
        allowedDomains,
        ...(input.publishable ? { publishableKey: generated.key } : {}),
      },
      maxKeysPerKnowledgeBase,
    );
    if (created.kind === 'not_found') throw notFound();
    if (created.kind === 'limit_reached') {
      throw new DomainError('validation_failed', `A knowledge base can have at most ${maxKeysPerKnowledgeBase} keys. Revoke one first.`);
    }
    const { key } = created;
    return { key, secret: generated.key };
  }

  async list(ownerId: string, ragId: string): Promise<ApiKey[]> {
    const keys = await this.store.listApiKeys(ownerId, ragId);
    if (!keys) throw notFound();
    return keys;
  }

  async update(ownerId: string, ragId: string, keyId: string, patch: { name?: string | null | undefined; allowedDomains?: string[] | undefined }): Promise<ApiKey> {
    const clean: ApiKeyPatch = {};
    if (patch.name !== undefined) clean.name = patch.name?.trim() || null;
    if (patch.allowedDomains !== undefined) clean.allowedDomains = normaliseDomains(patch.allowedDomains);
    const key = await this.store.updateApiKey(ownerId, ragId, keyId, clean);
    if (!key) throw notFound();
    this.forgetKeysOf(ragId);
    return key;
  }

  async revoke(ownerId: string, ragId: string, keyId: string): Promise<void> {
    if (!(await this.store.revokeApiKey(ownerId, ragId, keyId))) throw notFound();
    this.forgetKeysOf(ragId);
  }

  /**
   * The key for `secret` if it is live and belongs to `kb`. `kb` must be
   * freshly read: its keysVersion decides whether a cached key is still valid.
   * Every failure is the same 401, so the answer does not tell a revoked key
   * from a key of another knowledge base.
   */
  verify(secret: string | undefined, kb: KnowledgeBase | undefined): MaybePromise<ApiKey> {
    if (!secret) throw new DomainError('unauthorized', 'Send the knowledge base key in the X-API-Key header.');
    if (!looksLikeKey(secret)) throw invalidKey();
    const hash = hashSecret(secret);
    const entry = this.cache.get(hash);
    // A cached key still valid for this knowledge base is the key, now (src/maybe-promise.ts).
    if (entry && kb && entry.keysVersion === kb.keysVersion) return keyOf(entry, kb);
    return this.lookUp(hash).then((found) => keyOf(found, kb));
  }

  /** The key stored under `hash`, remembered; `invalid key` when there is none. */
  private async lookUp(hash: string): Promise<CacheEntry> {
    const found = await this.store.findApiKeyByHash(hash);
    if (!found) {
      this.cache.delete(hash);
      throw invalidKey();
    }
    const entry = { key: found.key, keysVersion: found.keysVersion };
    this.remember(hash, entry);
    return entry;
  }

  private remember(hash: string, entry: CacheEntry): void {
    this.cache.set(hash, entry);
  }

  private forgetKeysOf(ragId: string): void {
    const hashes: string[] = [];
    for (const [hash, entry] of this.cache.entries()) if (entry.key.ragId === ragId) hashes.push(hash);
    for (const hash of hashes) this.cache.delete(hash);
  }
}

function notFound(): DomainError {
  return new DomainError('not_found', 'No such knowledge base or key in this account.');
}

/** The entry's key if it is a key of `kb`; otherwise the same 401 as any invalid key. */
function keyOf(entry: CacheEntry, kb: KnowledgeBase | undefined): ApiKey {
  if (!kb || entry.key.ragId !== kb.ragId) throw invalidKey();
  return entry.key;
}

function invalidKey(): DomainError {
  return new DomainError('unauthorized', 'The API key is invalid, revoked, or not a key of this knowledge base.');
}
