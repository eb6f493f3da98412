/**
 * Each record's full-text document stored with it, on PostgreSQL only (migration 20; issue 14, the
 * PostgreSQL retriever at 100,000 records): `records.tsv`, a column generated from RECORD_TSVECTOR
 * (title weighted A, text weighted D, `simple` configuration), with the GIN index on it.
 *
 * Why stored: the retriever ranks every matching record with `ts_rank_cd`, which needs the record's
 * tsvector. With only an expression index (as before), PostgreSQL recomputed it from the text for
 * every match, at each search: ~12,000 records for the benchmark's probe question at 100,000
 * records, most of the query's time (docs/indexing.md, Session 11). Now it is computed once, when a
 * record is written, and read.
 *
 * - A generated column, not a side table: PostgreSQL keeps it exact on every INSERT and UPDATE of
 *   title or text, with no write path or trigger of ours; the store's code (shared with SQLite)
 *   names the record columns it reads, so the documents are never sent to the application.
 * - The GIN index `records_fts_simple` (RECORD_FTS_INDEX: the name the expression index had) is
 *   created here, not at the retriever's start any more: migrations run one instance at a time
 *   (migrator.ts's advisory lock), so instances starting together are safe without more. The old
 *   expression index, which retrievers of earlier versions created at start under the advisory
 *   lock below, is dropped first under that same lock, so one of those starting meanwhile either
 *   finished before (and its index is dropped) or finds the new index by its name (and skips).
 * - record_term_stats' triggers read the stored column from their transition tables instead of
 *   analysing each written or deleted record's text again.
 *
 * Cost for existing data: ADD COLUMN … STORED rewrites `records` (every row's document computed)
 * and its indexes under an ACCESS EXCLUSIVE lock, so reads and writes of records wait for the
 * migration; measured figures in docs/storage.md.
 */
import { sql } from 'kysely';
import type { Db } from '../sql.js';
import { applyFunction, RECORD_DOCUMENT, RECORD_TSVECTOR } from './record-term-stats.js';

/** The GIN index on the stored documents (the name the expression index of earlier versions had). */
export const RECORD_FTS_INDEX = 'records_fts_simple';

/** Migration 20: the stored document column, its GIN index, and the term-count triggers reading it. */
export async function storeRecordDocuments(db: Db): Promise<void> {
  // The lock earlier versions' retrievers took to create the expression index at start.
  await sql`SELECT pg_advisory_xact_lock(hashtext('groundwork.records_fts:' || current_schema()))`.execute(db);
  await sql.raw(`ALTER TABLE records ADD COLUMN ${RECORD_DOCUMENT} tsvector GENERATED ALWAYS AS ${RECORD_TSVECTOR} STORED`).execute(db);
  await sql.raw(`DROP INDEX IF EXISTS ${RECORD_FTS_INDEX}`).execute(db);
  await sql.raw(`CREATE INDEX ${RECORD_FTS_INDEX} ON records USING gin (${RECORD_DOCUMENT})`).execute(db);
  await sql.raw(applyFunction(RECORD_DOCUMENT)).execute(db);
  // Statistics of the new column now (a sample: ~1 s at 100,000 records), not at autovacuum's
  // next analyse, which a rewrite does not prompt: the planner weighs the GIN index against the
  // rag_id index with them.
  await sql`ANALYZE records`.execute(db);
}
