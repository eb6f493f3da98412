/**
 * Knowledge-base API keys on PostgreSQL, stored by SHA-256 hash only. The
 * per-KB key limit is decided under the KB row lock. Every change to an existing key bumps the knowledge base's `keys_version` in the
 * same transaction, after locking the KB row `FOR NO KEY UPDATE` (as the
 * knowledge store does): concurrent changes to one KB's keys queue there, and
 * a reader that sees the new version also sees the change.
 */
import type pg from 'pg';
import type { ApiKey } from '../../../knowledge/model.js';
import type { ApiKeyPatch, CreateApiKeyResult, KeyLookup, KeyStore, NewApiKey } from '../port.js';
import { type Row, toApiKey } from '../rows.js';
import { now, type Queryable, transaction } from './shared.js';

async function owns(db: Queryable, ownerId: string, ragId: string, lock = false): Promise<boolean> {
  const sql = `SELECT 1 FROM knowledge_bases WHERE rag_id = $1 AND owner_id = $2${lock ? ' FOR NO KEY UPDATE' : ''}`;
  return ((await db.query(sql, [ragId, ownerId])).rowCount ?? 0) > 0;
}

async function bumpKeys(db: Queryable, ragId: string): Promise<void> {
  await db.query('UPDATE knowledge_bases SET keys_version = keys_version + 1 WHERE rag_id = $1', [ragId]);
}

export class PostgresKeyStore implements KeyStore {
  constructor(private readonly pool: pg.Pool) {}

  async createApiKey(ownerId: string, ragId: string, key: NewApiKey, maxKeys: number): Promise<CreateApiKeyResult> {
    return transaction(this.pool, async (client): Promise<CreateApiKeyResult> => {
      // The KB row lock queues concurrent creations for one KB, so the count
      // below cannot be stale (it was a check in the service, before the
      // insert, and 100 parallel requests made 100 keys). It also keeps the KB
      // from being deleted before the insert: a KB deleted while we wait is
      // not found. A new key changes no cached key, so the keys version stays (as in SQLite).
      if (!(await owns(client, ownerId, ragId, true))) return { kind: 'not_found' };
      const { rows: counted } = await client.query<{ n: string }>('SELECT count(*) AS n FROM api_keys WHERE rag_id = $1', [ragId]);
      const active = Number(counted[0]?.n ?? 0);
      if (active >= maxKeys) return { kind: 'limit_reached', active };
      const { rows } = await client.query<Row>(
        `INSERT INTO api_keys (key_id, rag_id, name, prefix, key_hash, allowed_domains, created_at)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::timestamptz) RETURNING *`,
        [key.keyId, ragId, key.name, key.prefix, key.keyHash, JSON.stringify(key.allowedDomains), now()],
      );
      return { kind: 'created', key: toApiKey(rows[0] as Row) };
    });
  }

  async listApiKeys(ownerId: string, ragId: string): Promise<ApiKey[] | undefined> {
    if (!(await owns(this.pool, ownerId, ragId))) return undefined;
    const { rows } = await this.pool.query<Row>('SELECT * FROM api_keys WHERE rag_id = $1 ORDER BY created_at, key_id', [ragId]);
    return rows.map(toApiKey);
  }

  async updateApiKey(ownerId: string, ragId: string, keyId: string, patch: ApiKeyPatch): Promise<ApiKey | undefined> {
    return transaction(this.pool, async (client) => {
      // The KB lock serialises changes to its keys, so the read-merge-write below cannot lose a concurrent patch.
      if (!(await owns(client, ownerId, ragId, true))) return undefined;
      const row = (await client.query<Row>('SELECT * FROM api_keys WHERE key_id = $1 AND rag_id = $2', [keyId, ragId])).rows[0];
      if (!row) return undefined;
      const next = { ...toApiKey(row), ...patch };
      const { rows } = await client.query<Row>('UPDATE api_keys SET name = $1, allowed_domains = $2::jsonb WHERE key_id = $3 RETURNING *', [
        next.name,
        JSON.stringify(next.allowedDomains),
        keyId,
      ]);
      await bumpKeys(client, ragId);
      return toApiKey(rows[0] as Row);
    });
  }

  async revokeApiKey(ownerId: string, ragId: string, keyId: string): Promise<boolean> {
    return transaction(this.pool, async (client) => {
      if (!(await owns(client, ownerId, ragId, true))) return false;
      const gone = (await client.query('DELETE FROM api_keys WHERE key_id = $1 AND rag_id = $2', [keyId, ragId])).rowCount ?? 0;
      if (gone === 0) return false;
      await bumpKeys(client, ragId);
      return true;
    });
  }

  async findApiKeyByHash(keyHash: string): Promise<KeyLookup | undefined> {
    // One statement, so the key and the version come from one snapshot.
    const row = (
      await this.pool.query<Row>('SELECT k.*, kb.keys_version FROM api_keys k JOIN knowledge_bases kb ON kb.rag_id = k.rag_id WHERE k.key_hash = $1', [keyHash])
    ).rows[0];
    return row ? { key: toApiKey(row), keysVersion: Number(row.keys_version) } : undefined;
  }

  async anyKeyAllows(patterns: string[]): Promise<boolean> {
    if (patterns.length === 0) return false;
    // `?|`: some pattern is an element of the key's array (exact string match), served by the GIN index of migration 3.
    const { rowCount } = await this.pool.query('SELECT 1 FROM api_keys WHERE allowed_domains ?| $1::text[] LIMIT 1', [patterns]);
    return (rowCount ?? 0) > 0;
  }
}
