/**
 * Schema upgrades: a database written by the previous schema version opens
 * with the current code, every migration after it is applied, and nothing
 * already stored is lost. Runs for SQLite always and PostgreSQL when
 * DATABASE_URL is set. The "previous version" is every migration before the
 * one under test, so migrations added later do not change what is checked.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresMigrations } from '../../src/adapters/storage/postgres/migrations.js';
import { PostgresStore } from '../../src/adapters/storage/postgres/postgres-store.js';
import type { Store } from '../../src/adapters/storage/port.js';
import { sqliteMigrations } from '../../src/adapters/storage/sqlite/migrations.js';
import { SqliteStore } from '../../src/adapters/storage/sqlite/sqlite-store.js';
import { describeIf, postgres } from '../support/requirements.js';

type Migration = { id: number; name: string; sql: string };

/** The id of the first migration whose SQL mentions `marker`. */
function idOf(migrations: Migration[], marker: string): number {
  const found = migrations.find((m) => m.sql.includes(marker));
  if (!found) throw new Error(`no migration mentions ${marker}`);
  return found.id;
}

// One knowledge base with a source and a record, as an older version stored them.
const at = '2026-01-02T03:04:05.000Z';
const old = {
  accountId: 'acc_migration0000000000000000',
  ragId: 'kb_migration00000000000000000',
  sourceId: 'src_migration0000000000000000',
  recordId: 'rec_migration0000000000000000',
};
const seedRows: [string, unknown[]][] = [
  ['INSERT INTO accounts (account_id, email, created_at) VALUES ($1, $2, $3)', [old.accountId, 'old@example.test', at]],
  [
    `INSERT INTO knowledge_bases (rag_id, owner_id, bot_name, description, greeting, theme, content_version, record_count, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [old.ragId, old.accountId, 'Old shop', 'From before', 'Hello!', '{"accentColor":"#123456"}', 3, 1, at, at],
  ],
  [
    `INSERT INTO sources (source_id, rag_id, source_name, format, byte_size, sha256, added_count, duplicate_count, rejected_count, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [old.sourceId, old.ragId, 'faq.txt', 'txt', 25, 'a'.repeat(64), 1, 0, 0, at],
  ],
  [
    `INSERT INTO records (record_id, rag_id, source_id, kind, title, text, fingerprint, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [old.recordId, old.ragId, old.sourceId, 'passage', null, 'We ship within three days.', 'b'.repeat(64), at],
  ],
];

/** What the current code must read from the upgraded database, then that it can use the new column. */
async function expectUpgraded(store: Store, migrations: Migration[], appliedIds: () => Promise<number[]>): Promise<void> {
  expect(await appliedIds()).toEqual(migrations.map((m) => m.id));
  const kb = await store.knowledge.getKnowledgeBase(old.accountId, old.ragId);
  expect(kb).toEqual({
    ragId: old.ragId,
    ownerId: old.accountId,
    botName: 'Old shop',
    description: 'From before',
    greeting: 'Hello!',
    fallbackMessage: null,
    theme: { accentColor: '#123456' },
    contentVersion: 3,
    keysVersion: 1,
    recordCount: 1,
    createdAt: at,
    updatedAt: at,
  });
  const records = await store.knowledge.listRecords(old.accountId, old.ragId, { limit: 10 });
  expect(records?.items).toEqual([expect.objectContaining({ recordId: old.recordId, sourceId: old.sourceId, text: 'We ship within three days.' })]);
  const updated = await store.knowledge.updateKnowledgeBase(old.accountId, old.ragId, { fallbackMessage: 'Ask us at help@shop.example' });
  expect(updated).toMatchObject({ botName: 'Old shop', greeting: 'Hello!', fallbackMessage: 'Ask us at help@shop.example', recordCount: 1 });
}

describe('SQLite schema upgrade', () => {
  it('opens a database of the schema before the fallback message: fallbackMessage is null, nothing is lost', async () => {
    const target = idOf(sqliteMigrations, 'fallback_message');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gw-migrate-')), 'groundwork.db');
    const db = new Database(file);
    db.exec('CREATE TABLE schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    for (const migration of sqliteMigrations.filter((m) => m.id < target)) {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)').run(migration.id, migration.name, at);
    }
    // The same statements as for PostgreSQL (each $n used once, in order), with SQLite's placeholders.
    for (const [sql, params] of seedRows) db.prepare(sql.replace(/\$\d+/g, '?')).run(...params);
    db.close();

    const store = new SqliteStore(file);
    try {
      await store.migrate();
      const appliedIds = async () => {
        const check = new Database(file, { readonly: true });
        try {
          return (check.prepare('SELECT id FROM schema_migrations ORDER BY id').all() as { id: number }[]).map((r) => r.id);
        } finally {
          check.close();
        }
      };
      await expectUpgraded(store, sqliteMigrations, appliedIds);
    } finally {
      await store.close();
    }
  });
});

describeIf(postgres, 'PostgreSQL schema upgrade', () => {
  const connectionString = process.env.DATABASE_URL ?? '';
  const schema = `gw_test_${randomBytes(6).toString('hex')}`;

  afterAll(async () => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await client.end();
    }
  });

  it('opens a database of the schema before the fallback message: fallbackMessage is null, nothing is lost', async () => {
    const target = idOf(postgresMigrations, 'fallback_message');
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA "${schema}"`);
      await client.query(`SET search_path = "${schema}"`);
      await client.query('CREATE TABLE schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)');
      for (const migration of postgresMigrations.filter((m) => m.id < target)) {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (id, name, applied_at) VALUES ($1, $2, $3)', [migration.id, migration.name, at]);
      }
      for (const [sql, params] of seedRows) await client.query(sql, params);
    } finally {
      await client.end();
    }

    const store = new PostgresStore({ connectionString, schema, max: 2 });
    try {
      await store.migrate();
      const appliedIds = async () => {
        const check = new pg.Client({ connectionString });
        await check.connect();
        try {
          return (await check.query<{ id: number }>(`SELECT id FROM "${schema}".schema_migrations ORDER BY id`)).rows.map((r) => r.id);
        } finally {
          await check.end();
        }
      };
      await expectUpgraded(store, postgresMigrations, appliedIds);
    } finally {
      await store.close();
    }
  });
});
