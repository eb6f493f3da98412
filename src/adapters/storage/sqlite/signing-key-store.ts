/** Signing key pairs in SQLite (see SigningKeyStore). */
import type Database from 'better-sqlite3';
import type { SigningKeyStore, StoredSigningKey } from '../port.js';
import { type Row, toSigningKey } from '../rows.js';
import { prepared } from './statements.js';

type Db = Database.Database;

export class SqliteSigningKeyStore implements SigningKeyStore {
  constructor(private readonly db: Db) {}

  async listSigningKeys(purpose: string): Promise<StoredSigningKey[]> {
    return (prepared(this.db, 'SELECT * FROM signing_keys WHERE purpose = ? ORDER BY created_at DESC, kid').all(purpose) as Row[]).map(toSigningKey);
  }

  private insert(key: StoredSigningKey): void {
    this.db
      .prepare('INSERT INTO signing_keys (kid, purpose, alg, public_jwk, private_jwk, created_at, retired_at) VALUES (?, ?, ?, ?, ?, ?, NULL)')
      .run(key.kid, key.purpose, key.alg, JSON.stringify(key.publicJwk), JSON.stringify(key.privateJwk), key.createdAt);
  }

  async addSigningKeyIfNone(key: StoredSigningKey): Promise<StoredSigningKey> {
    return this.db
      .transaction(() => {
        const active = prepared(this.db, 'SELECT * FROM signing_keys WHERE purpose = ? AND retired_at IS NULL ORDER BY created_at DESC LIMIT 1').get(key.purpose) as
          | Row
          | undefined;
        if (active) return toSigningKey(active);
        this.insert(key);
        return { ...key, retiredAt: null };
      })
      .immediate();
  }

  async rotateSigningKey(key: StoredSigningKey): Promise<void> {
    this.db
      .transaction(() => {
        prepared(this.db, 'UPDATE signing_keys SET retired_at = ? WHERE purpose = ? AND retired_at IS NULL').run(key.createdAt, key.purpose);
        this.insert(key);
      })
      .immediate();
  }
}
