/**
 * The embedded default store: one SQLite file under DATA_DIR in WAL mode.
 * better-sqlite3 is synchronous, and every multi-statement write runs in one
 * `BEGIN IMMEDIATE` transaction, so limits and quotas are decided while no
 * other writer can interleave. A crash mid-write leaves the last committed
 * state (SQLite's journal), never a partial source.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { AccountStore, KeyStore, KnowledgeStore, OAuthStore, SigningKeyStore, Store, UsageStore } from '../port.js';
import { SqliteAccountStore } from './account-store.js';
import { claimDataDir, type DataDirLock } from './data-dir-lock.js';
import { now } from './clock.js';
import { SqliteKeyStore } from './key-store.js';
import { SqliteKnowledgeStore } from './knowledge-store.js';
import { sqliteMigrations } from './migrations.js';
import { SqliteOAuthStore } from './oauth-store.js';
import { SqliteSigningKeyStore } from './signing-key-store.js';
import { SqliteUsageStore } from './usage-store.js';

type Db = Database.Database;

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  readonly knowledge: KnowledgeStore;
  readonly accounts: AccountStore;
  readonly keys: KeyStore;
  readonly usage: UsageStore;
  readonly signingKeys: SigningKeyStore;
  readonly oauth: OAuthStore;
  private readonly db: Db;
  private readonly lock: DataDirLock | undefined;

  /** `file` is a path, or `:memory:` for tests that need no durability. */
  constructor(file: string) {
    if (file !== ':memory:') {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      this.lock = claimDataDir(file);
    }
    try {
      this.db = new Database(file);
    } catch (error) {
      this.lock?.release();
      throw error;
    }
    this.db.pragma('journal_mode = WAL');
    // NORMAL is durable across process crashes in WAL mode; FULL adds power-loss durability.
    this.db.pragma('synchronous = FULL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    // Truncate the write-ahead log after checkpoints instead of letting it keep its largest size.
    this.db.pragma('journal_size_limit = 16777216');
    this.knowledge = new SqliteKnowledgeStore(this.db);
    this.accounts = new SqliteAccountStore(this.db);
    this.keys = new SqliteKeyStore(this.db);
    this.usage = new SqliteUsageStore(this.db);
    this.signingKeys = new SqliteSigningKeyStore(this.db);
    this.oauth = new SqliteOAuthStore(this.db);
  }

  async migrate(): Promise<void> {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    const applied = new Set((this.db.prepare('SELECT id FROM schema_migrations').all() as { id: number }[]).map((r) => r.id));
    for (const migration of sqliteMigrations) {
      if (applied.has(migration.id)) continue;
      this.db
        .transaction(() => {
          this.db.exec(migration.sql);
          this.db.prepare('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)').run(migration.id, migration.name, now());
        })
        .immediate();
    }
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
    this.lock?.release();
  }
}
