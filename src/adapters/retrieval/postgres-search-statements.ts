/**
 * The SQL of the PostgreSQL retriever's searches (postgres-fts.ts chooses one per question). All
 * three return the same rows, scores and order for the same knowledge base, tsquery and k; they
 * differ only in how PostgreSQL finds the matching records:
 * - `searchStatement`: through the GIN index on the stored documents, ANDed with the knowledge
 *   base's rows as the planner sees fit;
 * - `knowledgeBaseScanStatement`: the knowledge base's own rows first, then the match on each, for
 *   small knowledge bases (below);
 * - `prunedSearchStatement`: only the records holding the rarer words, when that cannot change the
 *   result (large knowledge bases).
 */
import { RANK_WEIGHTS_ARRAY } from '../storage/postgres/record-term-impacts.js';
import { RECORD_DOCUMENT } from '../storage/postgres/record-term-stats.js';

/** {D, C, B, A}: a title (A) match weighs twice a text (D) match, as DEFAULT_TITLE_WEIGHT (record-term-impacts.ts). */
const RANK_WEIGHTS = RANK_WEIGHTS_ARRAY;

/**
 * The search: the knowledge base's records matching the tsquery $2, ranked, the best $3, with
 * their source names. The inner query ranks on (seq, stored document) only; the outer one fetches
 * title, text and source name for the k rows kept, by primary key. Same rows, scores and order as
 * ranking and sorting the whole rows (ties: upload order), without sorting ~12,000 texts.
 */
export function searchStatement(normalization: number): string {
  return topRanked('', 'records', 'm.rag_id = $1 AND ', normalization);
}

/**
 * The top $3 of `rows` (aliased m; `where` any further condition, ending in AND) matching the
 * tsquery $2, ranked on (seq, stored document) only, then joined back by primary key for their
 * title, text and source name; ties in upload order. `lead` goes before the SELECT (a WITH).
 */
function topRanked(lead: string, rows: string, where: string, normalization: number): string {
  return `
${lead}SELECT r.record_id, r.kind, r.title, r.text, s.source_name, top.score
FROM (
  SELECT m.seq, ts_rank_cd('${RANK_WEIGHTS}'::float4[], m.${RECORD_DOCUMENT}, q.query, ${Math.trunc(normalization)}) AS score
  FROM ${rows} m CROSS JOIN (SELECT $2::tsquery AS query) q
  WHERE ${where}m.${RECORD_DOCUMENT} @@ q.query
  ORDER BY score DESC, m.seq
  LIMIT $3
) top
JOIN records r ON r.seq = top.seq
JOIN sources s ON s.source_id = r.source_id
ORDER BY top.score DESC, top.seq`;
}

/**
 * The search of a small knowledge base: its rows read by the `(rag_id, seq)` index, then each
 * matched against the tsquery and ranked; same rows, scores and order as `searchStatement`.
 *
 * Why not leave it to the planner: how many rows `rag_id = $1` matches is a guess from the table's
 * statistics, and a new knowledge base is in none of them (25 new rows do not trigger an automatic
 * `ANALYZE` of a 100,000-row table). Next to a large knowledge base the planner guessed ~2,100 rows
 * for a 25-record one and intersected the GIN index's matches for the question's words over every
 * tenant (20,051 rows of the large one) with the `rag_id` index: 6.6 ms of PostgreSQL's time per
 * search, against 0.08 ms reading the 25 rows and testing each (docs/indexing.md, Session 28). The
 * `MATERIALIZED` CTE keeps the knowledge base's rows a step of their own that the planner cannot
 * merge into the match, so the plan no longer depends on statistics the knowledge base is not in.
 * It costs ~2.5–5 µs per row of the knowledge base, whatever the question: hence only up to
 * SCAN_KNOWLEDGE_BASES_UP_TO records.
 */
export function knowledgeBaseScanStatement(normalization: number): string {
  return topRanked(`WITH kb AS MATERIALIZED (SELECT seq, ${RECORD_DOCUMENT} FROM records WHERE rag_id = $1)\n`, 'kb', '', normalization);
}

/**
 * Knowledge bases of at most this many records are searched by `knowledgeBaseScanStatement`: at
 * most ~1 ms of reading rows, against the GIN index's matches over every tenant, which the
 * planner may choose for a knowledge base its statistics do not know.
 */
export const SCAN_KNOWLEDGE_BASES_UP_TO = 200;

/**
 * A search that ranks only the records holding one of the rarer words when that cannot change its
 * result (record-term-impacts.ts): $4 the tsquery of the rarer words, $5 the other words (those of
 * the full tsquery $2 not in $4). The records holding none of $4's words hold only $5's, so each
 * ranks at most the sum of their `max_impact`; when the k-th best of the others ranks above that
 * (times PRUNING_MARGIN, for rounding), the others' top k is the top k: same rows, scores and
 * order (ties: upload order) as `searchStatement`. Otherwise the full search runs, in the same
 * statement (the one-time filter skips the branch not taken); each row says which (`pruned`). The
 * bound is read in the search's own snapshot, so a concurrent write cannot make it stale; an unknown
 * bound (NULL) prunes nothing. Only for normalisation 1, which the bounds are of.
 */
export function prunedSearchStatement(): string {
  const rank = `ts_rank_cd('${RANK_WEIGHTS}'::float4[], m.${RECORD_DOCUMENT}, q.query, ${PRUNED_NORMALIZATION})`;
  return `
WITH rare AS MATERIALIZED (
  SELECT m.seq, ${rank} AS score
  FROM records m CROSS JOIN (SELECT $2::tsquery AS query, $4::tsquery AS rare) q
  WHERE m.rag_id = $1 AND m.${RECORD_DOCUMENT} @@ q.rare
  ORDER BY score DESC, m.seq
  LIMIT $3
), bound AS MATERIALIZED (
  SELECT (SELECT count(*) FROM rare) = $3
    AND (SELECT min(score) FROM rare) > ${PRUNING_MARGIN} * (
      SELECT coalesce(sum(coalesce(t.max_impact, 'Infinity'::float8)), 0) FROM record_term_stats t WHERE t.rag_id = $1 AND t.word = ANY ($5::text[])
    ) AS pruned
), top AS (
  SELECT seq, score FROM rare WHERE (SELECT pruned FROM bound)
  UNION ALL
  (SELECT m.seq, ${rank} AS score
   FROM records m CROSS JOIN (SELECT $2::tsquery AS query) q
   WHERE m.rag_id = $1 AND m.${RECORD_DOCUMENT} @@ q.query AND NOT (SELECT pruned FROM bound)
   ORDER BY score DESC, m.seq
   LIMIT $3)
)
SELECT r.record_id, r.kind, r.title, r.text, s.source_name, top.score, (SELECT pruned FROM bound) AS pruned
FROM top
JOIN records r ON r.seq = top.seq
JOIN sources s ON s.source_id = r.source_id
ORDER BY top.score DESC, top.seq`;
}

/** The normalisation record_term_stats.max_impact bounds ranks for (1: divide by 1 + log(length)). */
export const PRUNED_NORMALIZATION = 1;
/** The bound is raised by this factor before the comparison, so float rounding never prunes a record that could tie. */
const PRUNING_MARGIN = 1.001;

/** A tsquery literal of exact lexemes: each quoted, so nothing in it is parsed as an operator. */
export function lexemeQuery(lexemes: Iterable<string>): string {
  const parts: string[] = [];
  for (const lexeme of lexemes) parts.push(`'${lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`);
  return parts.join(' | ');
}
