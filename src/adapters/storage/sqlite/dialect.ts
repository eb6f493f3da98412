/**
 * The SQLite dialect of the store: one file under DATA_DIR in WAL mode, one
 * better-sqlite3 connection. Kysely's SQLite driver queues every use of the
 * connection; here every transaction begins `IMMEDIATE`, taking the write lock
 * at once, so limits and quotas are decided while no other writer can
 * interleave, and a crash mid-write leaves the last committed state (SQLite's
 * journal), never a partial source. For speed on the query path, statements
 * are prepared once per SQL text (statements.ts) and the knowledge-base row
 * comes from memory until the next write (row-cache.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, Kysely, SqliteAdapter, type Dialect, SqliteDriver, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import type { KnowledgeBase } from '../../../knowledge/model.js';
import type { Schema } from '../schema.js';
import { SqlContext } from '../sql.js';
import { SqlStore } from '../store.js';
import { claimDataDir, type DataDirLock } from './data-dir-lock.js';
import { knowledgeBaseRowReader } from './knowledge-base-row.js';
import { RowCache } from './row-cache.js';
import { prepared } from './statements.js';
import { Slices } from '../../../time-slices.js';

/**
 * Kysely's SQLite driver, with write transactions that take the lock when they begin, and that
 * let other work run while they last. better-sqlite3 runs each statement synchronously, so a
 * transaction of many statements (an upload of 20,000 records: ~40 inserts of 500 rows and the
 * fingerprint look-ups, ~400 ms) used to hold the event loop from BEGIN to COMMIT. Before a
 * statement of an open transaction, once `SLICE_MS` of it ran since the last pause, it waits for
 * the next turn of the event loop (`nextTurn`): requests that need no database go on meanwhile, and
 * those that do wait for the one connection as before (Kysely's mutex), so what a transaction sees
 * and writes is unchanged. A transaction shorter than a slice never pauses.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  /** The open transaction's clock (one connection, so at most one). */
  private slices: Slices | undefined;
  private turnTaking: DatabaseConnection | undefined;

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.turnTaking ??= {
      executeQuery: async (query) => {
        if (this.slices) await this.slices.maybe();
        return connection.executeQuery(query);
      },
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
    return this.turnTaking;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    this.slices = new Slices();
    await connection.executeQuery(CompiledQuery.raw('BEGIN IMMEDIATE'));
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.commitTransaction(connection);
    } finally {
      this.slices = undefined;
    }
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } finally {
      this.slices = undefined;
    }
  }
}

function sqliteDialect(db: Database.Database): Dialect {
  // Kysely prepares each statement it runs; this database prepares each SQL text once.
  const database = { prepare: (text: string) => prepared(db, text), close: () => db.close() };
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new ImmediateSqliteDriver({ database }),
    createIntrospector: (k) => new SqliteIntrospector(k),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

export class SqliteStore extends SqlStore {
  private readonly db: Database.Database;
  private readonly lock: DataDirLock | undefined;

  /** `file` is a path, or `:memory:` for tests that need no durability. */
  constructor(file: string) {
    let lock: DataDirLock | undefined;
    if (file !== ':memory:') {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      lock = claimDataDir(file);
    }
    let db: Database.Database;
    try {
      db = new Database(file);
    } catch (error) {
      lock?.release();
      throw error;
    }
    db.pragma('journal_mode = WAL');
    // NORMAL is durable across process crashes in WAL mode; FULL adds power-loss durability.
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // Truncate the write-ahead log after checkpoints instead of letting it keep its largest size.
    db.pragma('journal_size_limit = 16777216');
    super(new SqlContext('sqlite', new Kysely<Schema>({ dialect: sqliteDialect(db) }), new RowCache<KnowledgeBase>(db, undefined, knowledgeBaseRowReader(db))));
    this.db = db;
    this.lock = lock;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
    this.lock?.release();
  }
}
