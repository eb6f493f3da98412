/**
 * The PostgreSQL dialect of the store, for deployments that run more than one
 * instance: a pg pool (optionally on its own schema) under Kysely's
 * PostgresDialect. Transactions run side by side at READ COMMITTED; the row
 * that owns a rule is locked before the rule is checked (see sql.ts).
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Schema } from '../schema.js';
import { SqlContext } from '../sql.js';
import { SqlStore } from '../store.js';

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

export class PostgresStore extends SqlStore {
  private readonly pool: pg.Pool;
  private closing: Promise<void> | undefined;

  constructor(options: PostgresStoreOptions) {
    const { schema } = options;
    // The name ends up inside SQL and a startup parameter, so only plain lower-case identifiers
    // (≤ 63 bytes, PostgreSQL's limit) are accepted; they are still double-quoted in case one is a reserved word.
    if (schema !== undefined && (!SCHEMA_NAME.test(schema) || schema.length > 63)) {
      throw new Error(`invalid PostgreSQL schema name: ${JSON.stringify(schema)}`);
    }
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      // Fail fast when the server is unreachable (readiness and start-up), instead of pg's unbounded wait.
      connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5000,
      ...(options.max === undefined ? {} : { max: options.max }),
      // Set at connection start-up, so every pooled connection — including the migration one —
      // resolves the tables in this schema with no extra round trip.
      ...(schema === undefined ? {} : { options: `-c search_path="${schema}"` }),
    });
    // An idle client that loses its connection emits 'error' on the pool; with no listener that
    // would crash the process. The pool drops the client and the next query opens a new one;
    // ping() reports a database that stays down.
    pool.on('error', () => {});
    super(new SqlContext('postgres', new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) })), schema);
    this.pool = pool;
  }

  async close(): Promise<void> {
    // pool.end() throws when called twice; every caller awaits the same end.
    this.closing ??= this.pool.end();
    await this.closing;
  }
}
