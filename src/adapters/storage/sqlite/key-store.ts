/** Knowledge-base API keys in SQLite: stored by SHA-256 hash only; the per-KB key limit is decided in the insert's transaction. */
import type Database from 'better-sqlite3';
import type { ApiKey } from '../../../knowledge/model.js';
import type { ApiKeyPatch, CreateApiKeyResult, KeyLookup, KeyStore, NewApiKey } from '../port.js';
import { type Row, toApiKey } from '../rows.js';
import { now } from './clock.js';
import { prepared } from './statements.js';

type Db = Database.Database;

export class SqliteKeyStore implements KeyStore {
  constructor(private readonly db: Db) {}

  private owns(ownerId: string, ragId: string): boolean {
    return Boolean(prepared(this.db, 'SELECT 1 FROM knowledge_bases WHERE rag_id = ? AND owner_id = ?').get(ragId, ownerId));
  }

  private setPatterns(keyId: string, domains: string[]): void {
    prepared(this.db, 'DELETE FROM api_key_domains WHERE key_id = ?').run(keyId);
    const insert = prepared(this.db, 'INSERT OR IGNORE INTO api_key_domains (key_id, pattern) VALUES (?, ?)');
    for (const domain of domains) insert.run(keyId, domain);
  }

  private bumpKeys(ragId: string): void {
    prepared(this.db, 'UPDATE knowledge_bases SET keys_version = keys_version + 1 WHERE rag_id = ?').run(ragId);
  }

  async createApiKey(ownerId: string, ragId: string, key: NewApiKey, maxKeys: number): Promise<CreateApiKeyResult> {
    return this.db
      .transaction((): CreateApiKeyResult => {
        if (!this.owns(ownerId, ragId)) return { kind: 'not_found' };
        const { n } = prepared(this.db, 'SELECT count(*) AS n FROM api_keys WHERE rag_id = ?').get(ragId) as { n: number };
        if (n >= maxKeys) return { kind: 'limit_reached', active: n };
        this.db
          .prepare('INSERT INTO api_keys (key_id, rag_id, name, prefix, key_hash, allowed_domains, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
          .run(key.keyId, ragId, key.name, key.prefix, key.keyHash, JSON.stringify(key.allowedDomains), now());
        this.setPatterns(key.keyId, key.allowedDomains);
        return { kind: 'created', key: toApiKey(prepared(this.db, 'SELECT * FROM api_keys WHERE key_id = ?').get(key.keyId) as Row) };
      })
      .immediate();
  }

  async listApiKeys(ownerId: string, ragId: string): Promise<ApiKey[] | undefined> {
    if (!this.owns(ownerId, ragId)) return undefined;
    return (prepared(this.db, 'SELECT * FROM api_keys WHERE rag_id = ? ORDER BY created_at, key_id').all(ragId) as Row[]).map(toApiKey);
  }

  async updateApiKey(ownerId: string, ragId: string, keyId: string, patch: ApiKeyPatch): Promise<ApiKey | undefined> {
    return this.db
      .transaction(() => {
        if (!this.owns(ownerId, ragId)) return undefined;
        const row = prepared(this.db, 'SELECT * FROM api_keys WHERE key_id = ? AND rag_id = ?').get(keyId, ragId) as Row | undefined;
        if (!row) return undefined;
        const next = { ...toApiKey(row), ...patch };
        prepared(this.db, 'UPDATE api_keys SET name = ?, allowed_domains = ? WHERE key_id = ?').run(next.name, JSON.stringify(next.allowedDomains), keyId);
        this.setPatterns(keyId, next.allowedDomains);
        this.bumpKeys(ragId);
        return toApiKey(prepared(this.db, 'SELECT * FROM api_keys WHERE key_id = ?').get(keyId) as Row);
      })
      .immediate();
  }

  async revokeApiKey(ownerId: string, ragId: string, keyId: string): Promise<boolean> {
    return this.db
      .transaction(() => {
        if (!this.owns(ownerId, ragId)) return false;
        if (prepared(this.db, 'DELETE FROM api_keys WHERE key_id = ? AND rag_id = ?').run(keyId, ragId).changes === 0) return false;
        this.bumpKeys(ragId);
        return true;
      })
      .immediate();
  }

  async findApiKeyByHash(keyHash: string): Promise<KeyLookup | undefined> {
    const row = this.db
      .prepare('SELECT k.*, kb.keys_version FROM api_keys k JOIN knowledge_bases kb ON kb.rag_id = k.rag_id WHERE k.key_hash = ?')
      .get(keyHash) as Row | undefined;
    return row ? { key: toApiKey(row), keysVersion: Number(row.keys_version) } : undefined;
  }

  async anyKeyAllows(patterns: string[]): Promise<boolean> {
    if (patterns.length === 0) return false;
    const marks = patterns.map(() => '?').join(', ');
    return Boolean(prepared(this.db, `SELECT 1 FROM api_key_domains WHERE pattern IN (${marks}) LIMIT 1`).get(...patterns));
  }
}
