/**
 * Per knowledge base and word, an upper bound of what the word can add to a record's rank, on
 * PostgreSQL only (migration 21; issue 14, ingest → searchable at 100,000 records): the column
 * `record_term_stats.max_impact`, kept by the same statement-level triggers as the word counts
 * (record-term-stats.ts).
 *
 * Why: the PostgreSQL retriever ranks with `ts_rank_cd(RANK_WEIGHTS, tsv, query, 1)`. Its queries
 * OR lexemes, so every occurrence of a query word in a record is a cover of its own, and the rank
 * is a sum over the query's words of each word's *impact* in the record:
 *
 *     rank(record) = Σ over the query's words w of impact(record, w)
 *     impact(record, w) = (Σ over w's positions in the record of the weight of its label) / ln(1 + L)
 *
 * where L is the record's number of positions (`cnt_length`: a lexeme without positions counts
 * one) and a position's weight is RANK_WEIGHTS' (title A 1.0, text D 0.5). What is stored is a
 * bound of it: the same sum over ln(1 + the record's number of distinct words), never more than L
 * (equal when no word repeats; a few per cent above the impact for the FAQ records of the
 * benchmark). Counting L exactly needs a second pass over each record's words, which made the
 * triggers ~3× dearer on large uploads. With `max_impact(w)` (the largest bound of w over the
 * knowledge base's records), a record whose query words are all in a set C ranks at most
 * Σ max_impact(C). So the search (postgres-fts.ts) can rank only the
 * records holding one of the query's rarer words and skip the ~10,000 that hold only common ones,
 * whenever its k-th best rank is above that bound: the same hits, scores and order, checked in
 * the search's own snapshot, and the full ranking otherwise.
 *
 * Kept safe (never below the largest impact):
 * - a write raises it to the largest impact of the records it adds (INSERT, and the new side of an
 *   UPDATE, whose words are upserted even when their count does not change);
 * - a deletion leaves it (a bound that stays high is still a bound: searches then prune less), and
 *   resets it to 0 when no record holds the word any more (its count is exact, record-term-stats.ts);
 * - NULL means unknown (rows no write has bounded since the column was added): searches treat it
 *   as infinite. Migration 21 bounds every row from the stored documents, with `records` locked
 *   against writers, so none stays unknown.
 *
 * The weights are part of the stored figures: changing RANK_WEIGHTS needs a migration that
 * recomputes the column (or its searches stop pruning, see postgres-fts.ts).
 */
import { sql } from 'kysely';
import type { Db } from '../sql.js';
import { RECORD_FTS_INDEX } from './record-document.js';
import { RECORD_DOCUMENT } from './record-term-stats.js';

/** `ts_rank_cd`'s weight per label: a title (A) match weighs twice a text (D) match, as DEFAULT_TITLE_WEIGHT. */
export const RANK_WEIGHTS = { D: 0.5, C: 0.5, B: 0.5, A: 1 } as const;

/** RANK_WEIGHTS as `ts_rank_cd`'s float4[] argument, {D, C, B, A}. */
export const RANK_WEIGHTS_ARRAY = `{${[RANK_WEIGHTS.D, RANK_WEIGHTS.C, RANK_WEIGHTS.B, RANK_WEIGHTS.A].map((w) => w.toFixed(1)).join(',')}}`;

/**
 * The weighted number of positions of the unnested lexeme `u` (positions, weights): each position
 * weighs its label's weight (D when it has none, as ts_rank_cd counts a lexeme without positions).
 */
const weightedPositions = (u: string) => {
  const others = (['A', 'B', 'C'] as const)
    .filter((label) => RANK_WEIGHTS[label] !== RANK_WEIGHTS.D)
    .map((label) => ` + ${RANK_WEIGHTS[label] - RANK_WEIGHTS.D}::float8 * (cardinality(${u}.weights) - cardinality(array_remove(${u}.weights, '${label}')))`);
  return `(${RANK_WEIGHTS.D}::float8 * greatest(cardinality(${u}.positions), 1)${others.join('')})`;
};

/**
 * One row per word of each record of `rows` (a relation with rag_id and the stored document) with
 * the bound of its impact in that record, for the triggers (delta +1) and migration 21.
 */
export const impactsOf = (rows: string) => `SELECT r.rag_id, u.lexeme AS word, 1 AS delta, ${weightedPositions('u')} / ln((1 + length(r.${RECORD_DOCUMENT}))::float8) AS impact
  FROM ${rows} r
  CROSS JOIN LATERAL unnest(r.${RECORD_DOCUMENT}) u`;

const removalsOf = (rows: string) =>
  `SELECT r.rag_id, w.word, -1 AS delta, NULL::float8 AS impact FROM ${rows} r CROSS JOIN LATERAL unnest(tsvector_to_array(r.${RECORD_DOCUMENT})) AS w (word)`;

/**
 * The upsert of the summed deltas and the largest new impact per word, in (rag_id, word) order (as
 * record-term-stats.ts' upsert: concurrent writers lock words in one order), stamped with the
 * content version they make visible.
 */
const applyChanges = (changes: string) => `
    INSERT INTO record_term_stats AS t (rag_id, word, ndoc, version, max_impact)
    SELECT c.rag_id, c.word, c.delta, k.content_version + 1, coalesce(c.impact, 0)
    FROM (
      SELECT rag_id, word, sum(delta)::integer AS delta, max(impact) AS impact FROM (${changes}) d
      GROUP BY rag_id, word HAVING sum(delta) <> 0 OR max(impact) IS NOT NULL
    ) c
    -- A knowledge base being deleted has no row any more: its counts go with it (ON DELETE CASCADE).
    JOIN knowledge_bases k ON k.rag_id = c.rag_id
    ORDER BY c.rag_id, c.word COLLATE "C"
    ON CONFLICT (rag_id, word) DO UPDATE SET
      ndoc = t.ndoc + excluded.ndoc,
      version = excluded.version,
      max_impact = CASE
        WHEN t.ndoc + excluded.ndoc <= 0 THEN 0
        WHEN t.max_impact IS NULL THEN NULL
        ELSE greatest(t.max_impact, excluded.max_impact)
      END`;

/** The triggers' function from migration 21: counts (as migration 20's) and impact bounds. */
export const impactFunction = () => `CREATE OR REPLACE FUNCTION record_term_stats_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${applyChanges(impactsOf('new_rows'))};
  ELSIF TG_OP = 'DELETE' THEN
    ${applyChanges(removalsOf('old_rows'))};
  ELSE
    ${applyChanges(`${impactsOf('new_rows')} UNION ALL ${removalsOf('old_rows')}`)};
  END IF;
  RETURN NULL;
END
$fn$`;

/** Migration 21: the column, the triggers' function keeping it, the bounds of the records stored, and a smaller GIN pending list. */
export async function boundRecordTermImpacts(db: Db): Promise<void> {
  // No record written, changed or deleted until this commits: the bounds below are of every record,
  // and a writer waiting here then runs the new function.
  await sql`LOCK TABLE records IN SHARE ROW EXCLUSIVE MODE`.execute(db);
  await sql`ALTER TABLE record_term_stats ADD COLUMN max_impact double precision`.execute(db);
  await sql.raw(impactFunction()).execute(db);
  await sql
    .raw(
      `UPDATE record_term_stats t SET max_impact = b.impact
    FROM (SELECT rag_id, word, max(impact) AS impact FROM (${impactsOf('records')}) i GROUP BY rag_id, word) b
    WHERE t.rag_id = b.rag_id AND t.word = b.word`,
    )
    .execute(db);
  // Words no record holds any more (kept with ndoc 0 for readers catching up).
  await sql`UPDATE record_term_stats SET max_impact = 0 WHERE max_impact IS NULL AND ndoc <= 0`.execute(db);
  // Every search scans the GIN index's whole pending list (entries not yet merged into its tree);
  // at the default 4 MB it grew to ~500 pages and cost a search up to ~5–9 ms, and the insert that
  // merged it ~250–330 ms. 256 kB keeps both small (docs/indexing.md, Session 12).
  await sql.raw(`ALTER INDEX ${RECORD_FTS_INDEX} SET (gin_pending_list_limit = ${GIN_PENDING_LIST_KB})`).execute(db);
}

/** The GIN index's pending list limit, kB (PostgreSQL's default: 4096). */
export const GIN_PENDING_LIST_KB = 256;
