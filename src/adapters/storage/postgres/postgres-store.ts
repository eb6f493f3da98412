/**
 * The PostgreSQL store, for deployments that run more than one instance. It
 * mirrors SqliteStore statement for statement (see knowledge-store.ts,
 * account-store.ts, key-store.ts and usage-store.ts); what differs is how exactness under concurrency is
 * obtained. SQLite has one writer at a time; here the row that owns a rule
 * (the account for the KB limit, the knowledge base for its records) is
 * locked before the rule is checked, and start-up migrations take turns on an
 * advisory lock.
 */
import pg from 'pg';
import type { AccountStore, KeyStore, KnowledgeStore, OAuthStore, SigningKeyStore, Store, UsageStore } from '../port.js';
import { PostgresAccountStore } from './account-store.js';
import { PostgresKeyStore } from './key-store.js';
import { PostgresKnowledgeStore } from './knowledge-store.js';
import { postgresMigrations } from './migrations.js';
import { PostgresOAuthStore } from './oauth-store.js';
import { LOCK_CLASS_MIGRATE, now } from './shared.js';
import { PostgresSigningKeyStore } from './signing-key-store.js';
import { PostgresUsageStore } from './usage-store.js';

export interface PostgresStoreOptions {
  connectionString: string;
  /** Schema holding the tables (created if missing); the server's default search_path when omitted. */
  schema?: string;
  /** Pool size. */
  max?: number;
  /** How long to wait for a connection before failing; 5 s by default. */
  connectionTimeoutMillis?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  readonly knowledge: KnowledgeStore;
  readonly accounts: AccountStore;
  readonly keys: KeyStore;
  readonly usage: UsageStore;
  readonly signingKeys: SigningKeyStore;
  readonly oauth: OAuthStore;
  private readonly pool: pg.Pool;
  private readonly schema: string | undefined;
  private closing: Promise<void> | undefined;

  constructor(options: PostgresStoreOptions) {
    const { schema } = options;
    // The name ends up inside SQL and a startup parameter, so only plain
    // lower-case identifiers (≤ 63 bytes, PostgreSQL's limit) are accepted;
    // they are still double-quoted in case one is a reserved word.
    if (schema !== undefined && (!SCHEMA_NAME.test(schema) || schema.length > 63)) {
      throw new Error(`invalid PostgreSQL schema name: ${JSON.stringify(schema)}`);
    }
    this.schema = schema;
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      // Fail fast when the server is unreachable (readiness and start-up), instead of pg's unbounded wait.
      connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5000,
      ...(options.max === undefined ? {} : { max: options.max }),
      // Set at connection start-up, so every pooled connection — including the
      // migration one — resolves the tables in this schema with no extra round trip.
      ...(schema === undefined ? {} : { options: `-c search_path="${schema}"` }),
    });
    // An idle client that loses its connection emits 'error' on the pool; with
    // no listener that would crash the process. The pool drops the client and
    // the next query opens a new one; ping() reports a database that stays down.
    this.pool.on('error', () => {});
    this.knowledge = new PostgresKnowledgeStore(this.pool);
    this.accounts = new PostgresAccountStore(this.pool);
    this.keys = new PostgresKeyStore(this.pool);
    this.usage = new PostgresUsageStore(this.pool);
    this.signingKeys = new PostgresSigningKeyStore(this.pool);
    this.oauth = new PostgresOAuthStore(this.pool);
  }

  async migrate(): Promise<void> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      // Session-level lock: instances starting together take turns, and the
      // later one finds every migration applied. It is keyed by schema so
      // unrelated schemas on one server do not wait on each other. Everything,
      // CREATE SCHEMA included, runs under it, because IF NOT EXISTS is not
      // safe against a concurrent creator in PostgreSQL.
      await client.query('SELECT pg_advisory_lock($1::int, hashtext($2))', [LOCK_CLASS_MIGRATE, this.schema ?? '']);
      try {
        if (this.schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS "${this.schema}"`);
        await client.query(
          'CREATE TABLE IF NOT EXISTS schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)',
        );
        const applied = new Set((await client.query<{ id: number }>('SELECT id FROM schema_migrations')).rows.map((r) => r.id));
        for (const migration of postgresMigrations) {
          if (applied.has(migration.id)) continue;
          await client.query('BEGIN');
          try {
            // Multi-statement text without parameters goes over the simple protocol in one round trip.
            await client.query(migration.sql);
            await client.query('INSERT INTO schema_migrations (id, name, applied_at) VALUES ($1, $2, $3::timestamptz)', [
              migration.id,
              migration.name,
              now(),
            ]);
            await client.query('COMMIT');
          } catch (error) {
            await client.query('ROLLBACK').catch((rollbackError: Error) => {
              broken = rollbackError;
            });
            throw error;
          }
        }
      } finally {
        // A lock that cannot be released must not go back to the pool with its
        // connection: destroying the connection releases it server-side.
        await client.query('SELECT pg_advisory_unlock($1::int, hashtext($2))', [LOCK_CLASS_MIGRATE, this.schema ?? '']).catch((unlockError: Error) => {
          broken ??= unlockError;
        });
      }
    } finally {
      client.release(broken);
    }
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    // pool.end() throws when called twice; every caller awaits the same end.
    this.closing ??= this.pool.end();
    await this.closing;
  }
}
