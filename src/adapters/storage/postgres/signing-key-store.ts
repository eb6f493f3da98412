/** Signing key pairs in PostgreSQL (see SigningKeyStore). */
import type pg from 'pg';
import type { SigningKeyStore, StoredSigningKey } from '../port.js';
import { type Row, toSigningKey } from '../rows.js';
import { transaction } from './shared.js';

const insertSql =
  'INSERT INTO signing_keys (kid, purpose, alg, public_jwk, private_jwk, created_at, retired_at) VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::timestamptz, NULL)';

export class PostgresSigningKeyStore implements SigningKeyStore {
  constructor(private readonly pool: pg.Pool) {}

  async listSigningKeys(purpose: string): Promise<StoredSigningKey[]> {
    const { rows } = await this.pool.query<Row>('SELECT * FROM signing_keys WHERE purpose = $1 ORDER BY created_at DESC, kid', [purpose]);
    return rows.map(toSigningKey);
  }

  private params(key: StoredSigningKey): unknown[] {
    return [key.kid, key.purpose, key.alg, JSON.stringify(key.publicJwk), JSON.stringify(key.privateJwk), key.createdAt];
  }

  async addSigningKeyIfNone(key: StoredSigningKey): Promise<StoredSigningKey> {
    return transaction(this.pool, async (client) => {
      // Two instances starting at once take turns here, so only one key is created.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`signing_keys:${key.purpose}`]);
      const { rows } = await client.query<Row>(
        'SELECT * FROM signing_keys WHERE purpose = $1 AND retired_at IS NULL ORDER BY created_at DESC LIMIT 1',
        [key.purpose],
      );
      if (rows[0]) return toSigningKey(rows[0]);
      await client.query(insertSql, this.params(key));
      return { ...key, retiredAt: null };
    });
  }

  async rotateSigningKey(key: StoredSigningKey): Promise<void> {
    await transaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`signing_keys:${key.purpose}`]);
      await client.query('UPDATE signing_keys SET retired_at = $1::timestamptz WHERE purpose = $2 AND retired_at IS NULL', [key.createdAt, key.purpose]);
      await client.query(insertSql, this.params(key));
    });
  }
}
