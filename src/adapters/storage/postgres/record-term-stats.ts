/**
 * Per-knowledge-base word counts of the records' full-text documents, on PostgreSQL only (issue 14,
 * the PostgreSQL retriever at 100,000 records): `record_term_stats(rag_id, word, ndoc, version)`
 * holds, for every word of the `simple` analysis of title + text (RECORD_TSVECTOR), the number of
 * the knowledge base's records containing it — what `ts_stat` over those records yields — so the
 * retriever reads a knowledge base's vocabulary with one index range read instead of analysing
 * all its records again on every content version (3 s at 100,000 records).
 *
 * Kept by statement-level triggers on `records` (transition tables), not by statements in the
 * store's write path:
 * - every way a record comes or goes changes the counts in the same transaction: uploads, page
 *   re-imports, deleting a record or a source, the cascades of a deleted source or knowledge base,
 *   and any INSERT, UPDATE or DELETE written by hand, with no second write path to keep in step
 *   (not TRUNCATE, which nothing issues: it would leave the counts behind);
 * - the store's code (knowledge-store.ts) is shared with SQLite, which needs none of this.
 *
 * Each statement's changes are summed per (knowledge base, word) and applied as one upsert of
 * signed deltas in (rag_id, word) order, so two transactions changing the same words lock them in
 * the same order and cannot deadlock (the store also serialises a knowledge base's writers on its
 * row); `ndoc = ndoc + delta` under the row lock keeps the counts exact under concurrency.
 *
 * `version` is the content version the change makes visible (the knowledge base's version + 1,
 * read in the trigger: the store bumps the version after writing the records). It is at least the
 * version the committing transaction ends with, so a reader that holds the vocabulary of version v
 * reads every word changed since with `version > v` (an index range read) and sets those words'
 * counts; a word re-read is harmless, as the counts are absolute. A word no record contains any
 * more keeps its row with `ndoc = 0`, so such a reader sees it go; full reads skip those rows.
 */
import { sql } from 'kysely';
import type { Db } from '../sql.js';

/** A record's indexed document: title weighted A, text weighted D, `simple` configuration. Stored as RECORD_DOCUMENT since migration 20, which the GIN index, searches and these counts read. */
export const RECORD_TSVECTOR = "(setweight(to_tsvector('simple'::regconfig, coalesce(title, '')), 'A') || setweight(to_tsvector('simple'::regconfig, text), 'D'))";

/**
 * The stored document column (migration 20, record-document.ts): RECORD_TSVECTOR computed once when
 * a record is written, read by searches and, since migration 20, by these triggers.
 */
export const RECORD_DOCUMENT = 'tsv';

/**
 * One row per word of each record of `rows` (a relation with rag_id and `document`: RECORD_TSVECTOR
 * over title and text, as migration 19 had it, or the stored column), with `sign`.
 */
const wordsOf = (rows: string, sign: 1 | -1, document: string) =>
  `SELECT r.rag_id, w.word, ${sign} AS delta FROM ${rows} r CROSS JOIN LATERAL unnest(tsvector_to_array(${document})) AS w (word)`;

/** The upsert of the summed deltas of `changes`, in (rag_id, word) order, stamped with the version they make visible. */
const applyChanges = (changes: string) => `
    INSERT INTO record_term_stats AS t (rag_id, word, ndoc, version)
    SELECT c.rag_id, c.word, c.delta, k.content_version + 1
    FROM (SELECT rag_id, word, sum(delta)::integer AS delta FROM (${changes}) d GROUP BY rag_id, word HAVING sum(delta) <> 0) c
    -- A knowledge base being deleted has no row any more: its counts go with it (ON DELETE CASCADE).
    JOIN knowledge_bases k ON k.rag_id = c.rag_id
    ORDER BY c.rag_id, c.word COLLATE "C"
    ON CONFLICT (rag_id, word) DO UPDATE SET ndoc = t.ndoc + excluded.ndoc, version = excluded.version`;

/**
 * The triggers' function, reading each record's words from `document`: the expression (migration
 * 19) or the stored column (migration 20 replaces the function: the transition tables hold the
 * stored column, so no record's text is analysed again to count it).
 */
export const applyFunction = (document: string) => `CREATE OR REPLACE FUNCTION record_term_stats_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${applyChanges(wordsOf('new_rows', 1, document))};
  ELSIF TG_OP = 'DELETE' THEN
    ${applyChanges(wordsOf('old_rows', -1, document))};
  ELSE
    ${applyChanges(`${wordsOf('new_rows', 1, document)} UNION ALL ${wordsOf('old_rows', -1, document)}`)};
  END IF;
  RETURN NULL;
END
$fn$`;

/** Creates the table and its triggers, then counts the records already stored (migration 19). */
export async function createRecordTermStats(db: Db): Promise<void> {
  await sql`CREATE TABLE record_term_stats (
    rag_id text NOT NULL REFERENCES knowledge_bases (rag_id) ON DELETE CASCADE,
    word text COLLATE "C" NOT NULL,
    ndoc integer NOT NULL,
    version integer NOT NULL,
    PRIMARY KEY (rag_id, word)
  )`.execute(db);
  // The words changed since a version, for a reader catching up.
  await sql`CREATE INDEX record_term_stats_changes ON record_term_stats (rag_id, version)`.execute(db);
  await sql.raw(applyFunction(RECORD_TSVECTOR)).execute(db);
  await sql`CREATE TRIGGER record_term_stats_insert AFTER INSERT ON records REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION record_term_stats_apply()`.execute(db);
  await sql`CREATE TRIGGER record_term_stats_delete AFTER DELETE ON records REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION record_term_stats_apply()`.execute(db);
  await sql`CREATE TRIGGER record_term_stats_update AFTER UPDATE ON records REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION record_term_stats_apply()`.execute(db);
  // The records already stored. After the triggers: CREATE TRIGGER locks `records` against writers
  // until this migration commits, so a write is either in this count's snapshot or counted by the
  // triggers once it may proceed, never both or neither.
  await sql
    .raw(
      `INSERT INTO record_term_stats (rag_id, word, ndoc, version)
    SELECT r.rag_id, w.word, count(*)::integer, max(k.content_version)
    FROM records r JOIN knowledge_bases k ON k.rag_id = r.rag_id
    CROSS JOIN LATERAL unnest(tsvector_to_array(${RECORD_TSVECTOR})) AS w (word)
    GROUP BY r.rag_id, w.word`,
    )
    .execute(db);
}
