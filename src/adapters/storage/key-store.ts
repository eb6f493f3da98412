/**
 * Knowledge-base API keys, stored by SHA-256 hash only. The per-KB key limit
 * and every change are decided in one write transaction with the knowledge
 * base's row locked: concurrent changes to one knowledge base's keys queue
 * there, and a change bumps its `keys_version` in the same transaction, so a
 * reader that sees the new version also sees the change. Whitelist patterns
 * are kept one per row in `api_key_domains` as well, for CORS preflights
 * (which carry no key, only an Origin).
 *
 * A publishable (widget) key also keeps its full key in `sealed_key`: AES-256-GCM under SECRET_KEY
 * (Sealer in secrets.ts), bound to the row by the context `api_keys:<keyId>`, so a value copied to
 * another row does not open. Revoking deletes the row, sealed copy included.
 */
import type { ApiKey } from '../../knowledge/model.js';
import type { ApiKeyPatch, CreateApiKeyResult, KeyLookup, KeyStore, NewApiKey } from '../../ports/storage.js';
import { SealError, type Sealer } from '../../secrets.js';
import { reachable } from './knowledge-store.js';
import { type Row, toApiKey } from './rows.js';
import { chunks, type Db, now, type SqlContext } from './sql.js';

async function setPatterns(tx: Db, keyId: string, domains: string[]): Promise<void> {
  await tx.deleteFrom('api_key_domains').where('key_id', '=', keyId).execute();
  const patterns = [...new Set(domains)];
  for (const batch of chunks(patterns)) {
    await tx
      .insertInto('api_key_domains')
      .values(batch.map((pattern) => ({ key_id: keyId, pattern })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

async function bumpKeys(tx: Db, ragId: string): Promise<void> {
  await tx
    .updateTable('knowledge_bases')
    .set((eb) => ({ keys_version: eb('keys_version', '+', 1) }))
    .where('rag_id', '=', ragId)
    .execute();
}

/** Binds a sealed key to its row. */
const sealContext = (keyId: string) => `api_keys:${keyId}`;

export class SqlKeyStore implements KeyStore {
  private sealer: Sealer | undefined;

  constructor(private readonly ctx: SqlContext) {}

  encryptAtRest(sealer: Sealer): void {
    this.sealer = sealer;
  }

  async createApiKey(ownerId: string, ragId: string, key: NewApiKey, maxKeys: number): Promise<CreateApiKeyResult> {
    let sealed: string | null = null;
    if (key.publishableKey !== undefined) {
      if (!this.sealer) throw new Error('A publishable key needs the store opened with SECRET_KEY (keys.encryptAtRest) to keep it sealed.');
      sealed = this.sealer.seal(key.publishableKey, sealContext(key.keyId));
    }
    return this.ctx.write(async (tx): Promise<CreateApiKeyResult> => {
      // The lock also keeps the knowledge base from being deleted before the insert: one deleted
      // while we wait is not found. A new key changes no cached key, so the keys version stays.
      if (!(await reachable(this.ctx, tx, ownerId, ragId, true))) return { kind: 'not_found' };
      const counted = await tx.selectFrom('api_keys').select((eb) => eb.fn.countAll().as('n')).where('rag_id', '=', ragId).executeTakeFirst();
      const active = Number(counted?.n ?? 0);
      if (active >= maxKeys) return { kind: 'limit_reached', active };
      const row = await tx
        .insertInto('api_keys')
        .values({
          key_id: key.keyId,
          rag_id: ragId,
          name: key.name,
          prefix: key.prefix,
          key_hash: key.keyHash,
          allowed_domains: JSON.stringify(key.allowedDomains),
          created_at: now(),
          sealed_key: sealed,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await setPatterns(tx, key.keyId, key.allowedDomains);
      return { kind: 'created', key: toApiKey(row as Row) };
    });
  }

  async listApiKeys(ownerId: string, ragId: string): Promise<ApiKey[] | undefined> {
    if (!(await reachable(this.ctx, this.ctx.db, ownerId, ragId))) return undefined;
    const rows = await this.ctx.db.selectFrom('api_keys').selectAll().where('rag_id', '=', ragId).orderBy('created_at').orderBy('key_id').execute();
    return rows.map((row) => {
      const key = toApiKey(row as Row);
      const full = row.sealed_key === null ? undefined : this.open(row.sealed_key, key.keyId);
      return full === undefined ? key : { ...key, apiKey: full };
    });
  }

  /** The full key from its sealed copy; undefined when it does not open with this secret (a changed SECRET_KEY). */
  private open(sealed: string, keyId: string): string | undefined {
    if (!this.sealer) return undefined;
    try {
      return this.sealer.open(sealed, sealContext(keyId));
    } catch (error) {
      if (error instanceof SealError) return undefined;
      throw error;
    }
  }

  async updateApiKey(ownerId: string, ragId: string, keyId: string, patch: ApiKeyPatch): Promise<ApiKey | undefined> {
    return this.ctx.write(async (tx) => {
      if (!(await reachable(this.ctx, tx, ownerId, ragId, true))) return undefined;
      const row = await tx.selectFrom('api_keys').selectAll().where('key_id', '=', keyId).where('rag_id', '=', ragId).executeTakeFirst();
      if (!row) return undefined;
      const next = { ...toApiKey(row as Row), ...patch };
      const updated = await tx
        .updateTable('api_keys')
        .set({ name: next.name, allowed_domains: JSON.stringify(next.allowedDomains) })
        .where('key_id', '=', keyId)
        .returningAll()
        .executeTakeFirstOrThrow();
      await setPatterns(tx, keyId, next.allowedDomains);
      await bumpKeys(tx, ragId);
      return toApiKey(updated as Row);
    });
  }

  async revokeApiKey(ownerId: string, ragId: string, keyId: string): Promise<boolean> {
    return this.ctx.write(async (tx) => {
      if (!(await reachable(this.ctx, tx, ownerId, ragId, true))) return false;
      const gone = await tx.deleteFrom('api_keys').where('key_id', '=', keyId).where('rag_id', '=', ragId).executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) return false;
      await bumpKeys(tx, ragId);
      return true;
    });
  }

  async findApiKeyByHash(keyHash: string): Promise<KeyLookup | undefined> {
    // One statement, so the key and the version come from one snapshot.
    const row = await this.ctx.db
      .selectFrom('api_keys as k')
      .innerJoin('knowledge_bases as kb', 'kb.rag_id', 'k.rag_id')
      .selectAll('k')
      .select('kb.keys_version')
      .where('k.key_hash', '=', keyHash)
      .executeTakeFirst();
    return row ? { key: toApiKey(row as Row), keysVersion: Number(row.keys_version) } : undefined;
  }

  async anyKeyAllows(patterns: string[]): Promise<boolean> {
    if (patterns.length === 0) return false;
    const row = await this.ctx.db.selectFrom('api_key_domains').select('key_id').where('pattern', 'in', patterns).limit(1).executeTakeFirst();
    return row !== undefined;
  }
}
