/**
 * Applies the pending migrations (migrations.ts), each in its own transaction
 * with its row in `schema_migrations` — the history table earlier versions kept,
 * so a database they created continues from where it is. (Kysely's Migrator
 * keeps its own tables and names; this is the same idea on our history.)
 *
 * On PostgreSQL instances starting together take turns on a session advisory
 * lock keyed by schema, and the later one finds every migration applied;
 * everything, CREATE SCHEMA included, runs under it, because IF NOT EXISTS is
 * not safe against a concurrent creator. On SQLite one process owns the file
 * (sqlite/data-dir-lock.ts) and each migration runs in BEGIN IMMEDIATE.
 */
import { sql } from 'kysely';
import { type Migration, migrations as all } from './migrations.js';
import { type Db, type DialectKind, LOCK_CLASS_MIGRATE, now } from './sql.js';

export async function migrate(db: Db, kind: DialectKind, schema?: string, migrations: Migration[] = all): Promise<void> {
  await db.connection().execute(async (conn) => {
    const lockKey = schema ?? '';
    if (kind === 'postgres') await sql`SELECT pg_advisory_lock(${LOCK_CLASS_MIGRATE}::int, hashtext(${lockKey}))`.execute(conn);
    try {
      if (schema !== undefined) await conn.schema.createSchema(schema).ifNotExists().execute();
      await conn.schema
        .createTable('schema_migrations')
        .ifNotExists()
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('applied_at', kind === 'postgres' ? 'timestamptz' : 'text', (c) => c.notNull())
        .execute();
      const applied = new Set((await conn.selectFrom('schema_migrations').select('id').execute()).map((r) => Number(r.id)));
      for (const migration of migrations) {
        if (applied.has(migration.id)) continue;
        await conn.transaction().execute(async (tx) => {
          await migration.up(tx, kind);
          await tx.insertInto('schema_migrations').values({ id: migration.id, name: migration.name, applied_at: now() }).execute();
        });
      }
    } finally {
      if (kind === 'postgres') await sql`SELECT pg_advisory_unlock(${LOCK_CLASS_MIGRATE}::int, hashtext(${lockKey}))`.execute(conn);
    }
  });
}
