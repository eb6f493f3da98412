/**
 * Retrieval by PostgreSQL full-text search (RETRIEVAL_BACKEND=postgres, with DATABASE_URL): the
 * records table is searched where it lives, so an instance keeps no per-knowledge-base index in
 * memory, only a small vocabulary per knowledge base for the answerer.
 *
 * How a question becomes a search (see docs/quality.md, "Retrieval backends", for the figures):
 * - Records are indexed as `setweight(to_tsvector('simple', title), 'A') ||
 *   setweight(to_tsvector('simple', text), 'D')` by a GIN expression index. `simple` (lower-case,
 *   no stemming, no stop-words) because the schema has no per-record language, and because the
 *   words are matched in Node, not by PostgreSQL's stemmers: the question is expanded with the
 *   same analysis the answerer uses (variants, compounds, spelling, diacritic folding, in the
 *   knowledge base's language) against the knowledge base's vocabulary (`ts_stat`, cached per
 *   content version), and every indexed word of every matched term is OR-ed into the tsquery.
 *   So "delivery" finds "deliver", "Größe" finds "grosse", "cafe" finds "café", in any language.
 * - Not `plainto_tsquery` / `websearch_to_tsquery`: both AND the words, and a visitor's question
 *   rarely has all its words in the record that answers it; and PostgreSQL's stemmers disagree
 *   with the answerer's analysis, so the answerer would refuse what retrieval found.
 * - Ranked by `ts_rank_cd` (cover density: matches close together rank higher), title matches
 *   weighing twice a text match (weights {D 0.5, A 1}) as in the in-memory index, normalised by
 *   1 + log(length) (flag 1). Unlike BM25 it has no IDF: a common word counts as much as a rare
 *   one, which is what it loses against the in-memory index (measured in docs/quality.md).
 *
 * The GIN index is created here, at start, with CREATE INDEX IF NOT EXISTS under an advisory lock
 * (instances starting together take turns), not by a storage migration: migrations belong to the
 * storage adapters, and this moves into them with the storage rewrite.
 */
import pg from 'pg';
import { detectCorpusLanguage } from '../../knowledge/language/detect.js';
import type { RetrievedRecord } from '../../knowledge/answering/types.js';
import type { RecordKind } from '../../knowledge/extraction/types.js';
import { searchTermsOf } from '../../knowledge/retrieval/knowledge-index.js';
import type { ExpandedQuery } from '../../knowledge/retrieval/query-expansion.js';
import type { Retrieval, RetrievalScope, Retriever } from '../../knowledge/retrieval/port.js';
import { TermVocabulary } from '../../knowledge/retrieval/vocabulary.js';

export interface PostgresRetrieverOptions {
  connectionString: string;
  /** Schema holding the records table; the server's default search_path when omitted (as PostgresStore). */
  schema?: string;
  /** Pool size (10 by default). */
  max?: number;
  /** Knowledge bases whose vocabulary is kept (least recently used dropped first). */
  capacity?: number;
  /** `ts_rank_cd` normalisation flags (1: divide by 1 + log(length)). */
  normalization?: number;
  /** Terms in more than this share of the records are left out of the search (see `searchWords`); 1 keeps every term. */
  commonShare?: number;
}

/** The indexed document of a record; the GIN index and every query use this exact expression. */
export const RECORD_TSVECTOR = "(setweight(to_tsvector('simple'::regconfig, coalesce(title, '')), 'A') || setweight(to_tsvector('simple'::regconfig, text), 'D'))";
export const RECORD_FTS_INDEX = 'records_fts_simple';
/** {D, C, B, A}: a title (A) match weighs twice a text (D) match, as DEFAULT_TITLE_WEIGHT. */
const RANK_WEIGHTS = '{0.5,0.5,0.5,1.0}';
const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;
/** First records read (200 characters of each) to detect the knowledge base's language, as detectCorpusLanguage samples them. */
const LANGUAGE_SAMPLE_ROWS = 64;

interface Entry {
  version: number;
  vocabulary: TermVocabulary;
}

interface HitRow {
  record_id: string;
  kind: string;
  title: string | null;
  text: string;
  source_name: string;
  score: number;
}

/** A tsquery literal of exact lexemes: each quoted, so nothing in it is parsed as an operator. */
export function lexemeQuery(lexemes: Iterable<string>): string {
  const parts: string[] = [];
  for (const lexeme of lexemes) parts.push(`'${lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`);
  return parts.join(' | ');
}

/**
 * Terms in more than this share of the records are not searched for (unless no rarer term is left):
 * ts_rank_cd has no IDF, so they only add noise to the ranking (BM25 gives a term in half the
 * records ln 2 ≈ 0.7 against ≈ 8 for a rare one at 5,000 records), and every record they match has
 * its tsvector recomputed to be ranked, which is the whole cost of a search (docs/performance.md).
 */
const DEFAULT_COMMON_SHARE = 0.5;

/**
 * The indexed words to OR into the tsquery: every indexed form of every term the expanded question
 * searches with (`searchTermsOf`: variants, compounds, spelling; stop-words when there is nothing
 * else), except terms more common than `commonShare` of the records while a rarer one is left.
 */
export function searchWords(vocabulary: TermVocabulary, expanded: ExpandedQuery, commonShare: number): Set<string> {
  const terms = searchTermsOf(expanded).filter(({ term }) => vocabulary.docFreq(term) > 0);
  let rarest = Number.POSITIVE_INFINITY;
  for (const { term } of terms) rarest = Math.min(rarest, vocabulary.docFreq(term));
  const maxDocs = Math.max(rarest, commonShare * vocabulary.size);
  const words = new Set<string>();
  for (const { term } of terms) {
    if (vocabulary.docFreq(term) > maxDocs) continue;
    for (const word of vocabulary.wordsOf(term)) words.add(word);
  }
  return words;
}

export class PostgresFtsRetriever implements Retriever {
  readonly kind = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly capacity: number;
  private readonly normalization: number;
  private readonly commonShare: number;
  private readonly entries = new Map<string, Entry>();
  private readonly building = new Map<string, Promise<Entry>>();
  private started: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private readonly searchSql: string;

  constructor(options: PostgresRetrieverOptions) {
    const { schema } = options;
    if (schema !== undefined && (!SCHEMA_NAME.test(schema) || schema.length > 63)) {
      throw new Error(`invalid PostgreSQL schema name: ${JSON.stringify(schema)}`);
    }
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      connectionTimeoutMillis: 5000,
      max: options.max ?? 10,
      ...(schema === undefined ? {} : { options: `-c search_path="${schema}"` }),
    });
    // A dropped idle connection is replaced by the pool; without a listener it would crash the process.
    this.pool.on('error', () => {});
    this.capacity = options.capacity ?? 2000;
    this.normalization = Math.trunc(options.normalization ?? 1);
    this.commonShare = options.commonShare ?? DEFAULT_COMMON_SHARE;
    this.searchSql = `
SELECT r.record_id, r.kind, r.title, r.text, s.source_name,
       ts_rank_cd('${RANK_WEIGHTS}'::float4[], ${RECORD_TSVECTOR}, q.query, ${this.normalization}) AS score
FROM records r
JOIN sources s ON s.source_id = r.source_id
CROSS JOIN (SELECT $2::tsquery AS query) q
WHERE r.rag_id = $1 AND ${RECORD_TSVECTOR} @@ q.query
ORDER BY score DESC, r.seq
LIMIT $3`;
  }

  /** Creates the GIN expression index if it is missing (idempotent; the records table must exist). */
  start(): Promise<void> {
    this.started ??= this.createIndex().catch((error: unknown) => {
      this.started = undefined;
      throw error;
    });
    return this.started;
  }

  private async createIndex(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // Two instances creating the same index at once would collide on the catalogue; they take turns.
      await client.query("SELECT pg_advisory_xact_lock(hashtext('groundwork.records_fts:' || current_schema()))");
      await client.query(`CREATE INDEX IF NOT EXISTS ${RECORD_FTS_INDEX} ON records USING gin (${RECORD_TSVECTOR})`);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async search(scope: RetrievalScope, query: string, k: number): Promise<Retrieval> {
    await this.start();
    const vocabulary = await this.vocabulary(scope);
    const limit = Number.isFinite(k) ? Math.floor(k) : 0;
    if (limit <= 0 || vocabulary.size === 0) return { hits: [], stats: vocabulary };
    const words = searchWords(vocabulary, vocabulary.expand(query), this.commonShare);
    if (words.size === 0) return { hits: [], stats: vocabulary };
    const { rows } = await this.pool.query<HitRow>(this.searchSql, [scope.ragId, lexemeQuery(words), limit]);
    const hits: RetrievedRecord[] = [];
    for (const row of rows) {
      if (!(row.score > 0)) continue;
      hits.push({ recordId: row.record_id, sourceName: row.source_name, title: row.title, text: row.text, kind: row.kind as RecordKind, score: row.score });
    }
    return { hits, stats: vocabulary };
  }

  async invalidate(ragId: string, contentVersion: number | undefined): Promise<void> {
    this.entries.delete(ragId);
    // Warm the new version, so the next question does not wait for the vocabulary.
    if (contentVersion !== undefined) await this.build(ragId, contentVersion);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.entries.clear();
      await this.pool.end();
    })();
    return this.closing;
  }

  private vocabulary(scope: RetrievalScope): Promise<TermVocabulary> | TermVocabulary {
    const entry = this.entries.get(scope.ragId);
    if (entry && entry.version >= scope.contentVersion) {
      this.entries.delete(scope.ragId);
      this.entries.set(scope.ragId, entry);
      return entry.vocabulary;
    }
    return this.build(scope.ragId, scope.contentVersion).then((built) => built.vocabulary);
  }

  /** The knowledge base's words and their record counts, its size and language, read in one snapshot. */
  private build(ragId: string, version: number): Promise<Entry> {
    const key = `${ragId}@${version}`;
    const inFlight = this.building.get(key);
    if (inFlight) return inFlight;
    const promise = (async () => {
      await this.start();
      const client = await this.pool.connect();
      let entry: Entry;
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const size = await client.query<{ n: string }>('SELECT count(*) AS n FROM records WHERE rag_id = $1', [ragId]);
        const sample = await client.query<{ text: string }>('SELECT left(text, 200) AS text FROM records WHERE rag_id = $1 ORDER BY seq LIMIT $2', [
          ragId,
          LANGUAGE_SAMPLE_ROWS,
        ]);
        // ts_stat takes the text of a query: the id is quoted by the server (quote_literal), never spliced here.
        const words = await client.query<{ word: string; ndoc: number }>(
          `SELECT word, ndoc FROM ts_stat('SELECT ${RECORD_TSVECTOR.replaceAll("'", "''")} FROM records WHERE rag_id = ' || quote_literal($1::text))`,
          [ragId],
        );
        await client.query('COMMIT');
        const language = detectCorpusLanguage(sample.rows.map((r) => r.text));
        entry = { version, vocabulary: new TermVocabulary(words.rows.map((r) => ({ word: r.word, docs: r.ndoc })), Number(size.rows[0]?.n ?? 0), language) };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
      const current = this.entries.get(ragId);
      if (!current || current.version <= version) {
        this.entries.delete(ragId);
        this.entries.set(ragId, entry);
        while (this.entries.size > this.capacity) {
          const oldest = this.entries.keys().next().value;
          if (oldest === undefined) break;
          this.entries.delete(oldest);
        }
      }
      return entry;
    })().finally(() => this.building.delete(key));
    this.building.set(key, promise);
    return promise;
  }
}
