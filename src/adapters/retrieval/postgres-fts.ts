/**
 * Retrieval by PostgreSQL full-text search (RETRIEVAL_BACKEND=postgres, with DATABASE_URL): the
 * records table is searched where it lives, so an instance keeps no per-knowledge-base index in
 * memory, only a small vocabulary per knowledge base for the answerer.
 *
 * How a question becomes a search (see docs/quality.md, "Retrieval backends", for the figures):
 * - Records are indexed as `setweight(to_tsvector('simple', title), 'A') ||
 *   setweight(to_tsvector('simple', text), 'D')`, stored in the generated column `records.tsv`
 *   with a GIN index on it (migration 20, src/adapters/storage/postgres/record-document.ts), so a
 *   search reads each matching record's document instead of analysing its text again to rank it
 *   (that was most of a search's time at 100,000 records, issue 14). `simple` (lower-case,
 *   no stemming, no stop-words) because the schema has no per-record language, and because the
 *   words are matched in Node, not by PostgreSQL's stemmers: the question is expanded with the
 *   same analysis the answerer uses (variants, compounds, spelling, diacritic folding, in the
 *   knowledge base's language) against the knowledge base's vocabulary, and every indexed word of
 *   every matched term is OR-ed into the tsquery.
 *   So "delivery" finds "deliver", "Größe" finds "grosse", "cafe" finds "café", in any language.
 * - The vocabulary (each indexed word and how many records contain it: what `ts_stat` over the
 *   records yields) is read from `record_term_stats`, which triggers keep with the records
 *   (src/adapters/storage/postgres/record-term-stats.ts; migration 19), not computed by `ts_stat`
 *   over all the records on every content version (seconds at 100,000 records, issue 14). A cold
 *   knowledge base reads it a page at a time (WORDS_PER_PAGE, each an index range read) and
 *   builds it in time slices, so other requests run meanwhile; at a new content version only the
 *   words changed since the version held are read (`version > held`) and applied in place
 *   (`TermVocabulary.update`; past MAX_CHANGES_IN_PLACE words, read in full and built anew), so
 *   an upload costs what its words cost, whatever the knowledge base's size. Reads of one
 *   knowledge base take turns, so two never apply changes to one vocabulary at once. An answer
 *   under way with a vocabulary that an upload then changes in place reads the newer counts from
 *   there on.
 * - Not `plainto_tsquery` / `websearch_to_tsquery`: both AND the words, and a visitor's question
 *   rarely has all its words in the record that answers it; and PostgreSQL's stemmers disagree
 *   with the answerer's analysis, so the answerer would refuse what retrieval found.
 * - Ranked by `ts_rank_cd` (cover density: matches close together rank higher), title matches
 *   weighing twice a text match (weights {D 0.5, A 1}) as in the in-memory index, normalised by
 *   1 + log(length) (flag 1). Unlike BM25 it has no IDF: a common word counts as much as a rare
 *   one, which is what it loses against the in-memory index (measured in docs/quality.md).
 *   The top k are chosen over (seq, score) alone and only they are joined back for their title,
 *   text and source name, so the other matches' texts are not carried through the sort.
 * - A small knowledge base (up to SCAN_KNOWLEDGE_BASES_UP_TO records) is searched by reading its
 *   own rows and testing each (`knowledgeBaseScanStatement`), not through the GIN index: the
 *   planner's choice there rests on statistics a new knowledge base is not in, and next to a large
 *   one it chose the index's matches over every tenant (6.6 ms instead of 0.08 ms a search).
 * - Pruned when that cannot change the result (`prunedSearchStatement`, storage migration 21): with
 *   OR-ed lexemes the rank is a sum over the question's words of what each adds to the record, and
 *   `record_term_stats.max_impact` bounds that per word. A search matching thousands of records
 *   ranks only those holding its rarer words (`pruningSplit`) and keeps their top k when the k-th
 *   ranks above what a record holding only the common words could reach; otherwise it ranks every
 *   match, in the same statement. At 100,000 records the ingest probe's question ranks ~2,100
 *   records instead of ~12,000 (docs/indexing.md, Session 12).
 *
 * The column and its index are the storage migrations' (migration 20; the bounds: 21), which run
 * one instance at a time; `start` only checks that they are there. (Earlier versions created an
 * expression index here, at start; migration 20 replaces it.)
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { statsWithSynonyms } from '../../knowledge/retrieval/owner-synonyms.js';
import { RECORD_FTS_INDEX } from '../storage/postgres/record-document.js';
import { RECORD_DOCUMENT, RECORD_TSVECTOR } from '../storage/postgres/record-term-stats.js';
import {
  knowledgeBaseScanStatement,
  lexemeQuery,
  PRUNED_NORMALIZATION,
  prunedSearchStatement,
  SCAN_KNOWLEDGE_BASES_UP_TO,
  searchStatement,
} from './postgres-search-statements.js';
import { detectCorpusLanguage } from '../../knowledge/language/detect.js';
import type { RetrievedRecord } from '../../knowledge/answering/types.js';
import type { RecordKind } from '../../knowledge/extraction/types.js';
import { searchTermsOf } from '../../knowledge/retrieval/knowledge-index.js';
import type { ExpandedQuery } from '../../knowledge/retrieval/query-expansion.js';
import type { Retrieval, RetrievalScope, Retriever } from '../../knowledge/retrieval/port.js';
import { TermVocabulary, type WordCount } from '../../knowledge/retrieval/vocabulary.js';

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

/**
 * The indexed document of a record (RECORD_TSVECTOR), stored in the column RECORD_DOCUMENT that the
 * GIN index RECORD_FTS_INDEX, the searches and record_term_stats' triggers read.
 */
export { RECORD_DOCUMENT, RECORD_FTS_INDEX, RECORD_TSVECTOR };
export { knowledgeBaseScanStatement, lexemeQuery, prunedSearchStatement, SCAN_KNOWLEDGE_BASES_UP_TO, searchStatement };
const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;
/** First records read (200 characters of each) to detect the knowledge base's language, as detectCorpusLanguage samples them. */
const LANGUAGE_SAMPLE_ROWS = 64;

/**
 * Changed words applied in place, in one go, up to this many (~10 µs each, their analysis: an
 * upload of a few records changes some tens); past it the words are read in full and a new
 * vocabulary built in slices, as applying them would hold the event loop as long as a build.
 */
const MAX_CHANGES_IN_PLACE = 1000;

/**
 * A full read takes the words this many at a time (~200 KB), each page as one row of text (see
 * `readAllWords`). A page of rows made 4,096 row objects as its bytes arrived and held the event
 * loop ~2 ms per page (the 130,000 words of a 100,000-record knowledge base in one result of rows:
 * ~40 ms at a time); a page of text is one string, ~0.1 ms, so the pages can be larger and fewer
 * round trips read the whole vocabulary.
 */
export const WORDS_PER_PAGE = 16_384;

/** One page's rows: `$2` words of knowledge base `$1` in word order (after `$3`, the last word read, past the first page). */
const pageRows = (after: boolean) => `SELECT word, ndoc FROM record_term_stats WHERE rag_id = $1 AND ndoc > 0${after ? ' AND word > $3' : ''} ORDER BY word LIMIT $2`;

/** The statement of one page as text: `count` words, the `last` of them, and `lines`, one `ndoc<TAB>word` per word, in word order. */
const pageStatement = (after: boolean) => `
  SELECT count(*)::integer AS count, max(word) AS last, string_agg(ndoc::text || E'\t' || word, E'\n' ORDER BY word) AS lines
  FROM (${pageRows(after)}) page`;

/**
 * One page of a full read: its words as lines `ndoc<TAB>word` joined by line breaks, or as rows
 * when a word holds a line break (see `readAllWords`).
 */
export type WordPage = { lines: string } | { rows: WordRow[] };

/**
 * Every word of the knowledge base with its record count, in word order (so every full read builds
 * the same vocabulary), a page at a time after the last word read: each page is a range read of the
 * primary key (rag_id, word), and all pages see the caller's snapshot (its transaction). A page
 * whose lines do not split into its word count (a word with a line break, which the `simple`
 * parser never makes but a row written by hand could hold) is read again as rows.
 */
export async function readAllWords(client: pg.ClientBase, ragId: string, pageSize = WORDS_PER_PAGE): Promise<WordPage[]> {
  const pages: WordPage[] = [];
  let after: string | undefined;
  for (;;) {
    const params = after === undefined ? [ragId, pageSize] : [ragId, pageSize, after];
    const { rows } = await client.query<{ count: number; last: string | null; lines: string | null }>(pageStatement(after !== undefined), params);
    const page = rows[0];
    if (!page || page.count === 0 || page.last === null || page.lines === null) return pages;
    pages.push(lineCount(page.lines) === page.count ? { lines: page.lines } : { rows: await pageOfRows(client, params) });
    if (page.count < pageSize) return pages;
    after = page.last;
  }
}

function lineCount(lines: string): number {
  let count = 1;
  for (let at = lines.indexOf('\n'); at !== -1; at = lines.indexOf('\n', at + 1)) count++;
  return count;
}

/** The page of `params` as rows. */
async function pageOfRows(client: pg.ClientBase, params: unknown[]): Promise<WordRow[]> {
  return (await client.query<WordRow>(pageRows(params.length === 3), params)).rows;
}

/** The words of `pages`, one at a time, in order. */
export function* wordsOfPages(pages: readonly WordPage[]): Generator<WordCount> {
  for (const page of pages) {
    if ('rows' in page) {
      yield* wordCounts(page.rows);
      continue;
    }
    const { lines } = page;
    for (let at = 0; at < lines.length; ) {
      const tab = lines.indexOf('\t', at);
      let end = lines.indexOf('\n', tab + 1);
      if (end === -1) end = lines.length;
      yield { word: lines.slice(tab + 1, end), docs: Number(lines.slice(at, tab)) };
      at = end + 1;
    }
  }
}

interface Entry {
  /** The content version the vocabulary is of (read with it, in one snapshot). */
  version: number;
  /** Searches at this content version or older use it (at least `version`). */
  serves: number;
  vocabulary: TermVocabulary;
  /** A hash of the record texts its language was detected on. */
  sample: string;
}

export interface WordRow {
  word: string;
  ndoc: number;
}

/** The rows as WordCounts, one at a time (not 100,000 objects made in one go). */
function* wordCounts(rows: readonly WordRow[]): Generator<WordCount> {
  for (const row of rows) yield { word: row.word, docs: Number(row.ndoc) };
}

interface HitRow {
  record_id: string;
  kind: string;
  title: string | null;
  text: string;
  source_name: string;
  score: number;
}

/**
 * Terms in more than this share of the records are not searched for (unless no rarer term is left):
 * ts_rank_cd has no IDF, so they only add noise to the ranking (BM25 gives a term in half the
 * records ln 2 ≈ 0.7 against ≈ 8 for a rare one at 5,000 records), and every record they match has
 * its stored tsvector read and ranked, which is most of the cost of a search (docs/performance.md).
 */
const DEFAULT_COMMON_SHARE = 0.5;

/**
 * The indexed words to OR into the tsquery: every indexed form of every term the expanded question
 * searches with (`searchTermsOf`: variants, compounds, spelling; stop-words when there is nothing
 * else), except terms more common than `commonShare` of the records while a rarer one is left.
 */
export function searchWords(vocabulary: TermVocabulary, expanded: ExpandedQuery, commonShare: number): Set<string> {
  const words = new Set<string>();
  for (const { term } of searchedTerms(vocabulary, expanded, commonShare)) {
    for (const word of vocabulary.wordsOf(term)) words.add(word);
  }
  return words;
}

/** The terms whose words `searchWords` ORs, with their record counts. */
function searchedTerms(vocabulary: TermVocabulary, expanded: ExpandedQuery, commonShare: number): { term: string; docs: number }[] {
  const terms = searchTermsOf(expanded)
    .map(({ term }) => ({ term, docs: vocabulary.docFreq(term) }))
    .filter(({ docs }) => docs > 0);
  let rarest = Number.POSITIVE_INFINITY;
  for (const { docs } of terms) rarest = Math.min(rarest, docs);
  const maxDocs = Math.max(rarest, commonShare * vocabulary.size);
  return terms.filter(({ docs }) => docs <= maxDocs);
}

/** Searches matching fewer records than this (summed over their terms) rank them all: a few ms. */
const PRUNE_FROM_MATCHES = 2000;
/** The rarer terms kept for a pruned search match at least this many records (summed), and at least k. */
const MIN_RARE_MATCHES = 64;
/** A pruned search is tried only when its rarer terms match at most this share of the matches. */
const MAX_RARE_SHARE = 0.25;

/** The words of a pruned search (`prunedSearchStatement`): the rarer ones, whose records are ranked, and the others. */
export interface PruningSplit {
  rare: Set<string>;
  common: string[];
}

/**
 * How to split the words `searchWords` gives for a pruned search, or undefined to rank every match:
 * the most common terms go to `common`, most common first, while the rest still match at least
 * MIN_RARE_MATCHES (and k) records (the rarest stay: they cost little and are what the question is
 * about), if that leaves at most MAX_RARE_SHARE of the matches to rank. Only a guess of what
 * pays: the statement itself checks, in its snapshot, that the result is the full search's.
 */
export function pruningSplit(vocabulary: TermVocabulary, expanded: ExpandedQuery, commonShare: number, k: number): PruningSplit | undefined {
  const terms = searchedTerms(vocabulary, expanded, commonShare).sort((a, b) => b.docs - a.docs);
  let total = 0;
  for (const { docs } of terms) total += docs;
  if (total < PRUNE_FROM_MATCHES) return undefined;
  const floor = Math.max(MIN_RARE_MATCHES, k);
  let remaining = total;
  const commonTerms = new Set<string>();
  for (const { term, docs } of terms) {
    if (remaining - docs < floor) break;
    commonTerms.add(term);
    remaining -= docs;
  }
  if (commonTerms.size === 0 || remaining > MAX_RARE_SHARE * total) return undefined;
  const rare = new Set<string>();
  for (const { term } of terms) if (!commonTerms.has(term)) for (const word of vocabulary.wordsOf(term)) rare.add(word);
  const common = new Set<string>();
  for (const term of commonTerms) for (const word of vocabulary.wordsOf(term)) if (!rare.has(word)) common.add(word);
  if (rare.size === 0 || common.size === 0) return undefined;
  return { rare, common: [...common] };
}

export class PostgresFtsRetriever implements Retriever {
  readonly kind = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly capacity: number;
  private readonly normalization: number;
  private readonly commonShare: number;
  private readonly entries = new Map<string, Entry>();
  /** The read in progress per knowledge base; the next one waits for it. */
  private readonly reading = new Map<string, Promise<Entry>>();
  private started: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private readonly searchSql: string;
  /** The search of a small knowledge base (`knowledgeBaseScanStatement`). */
  private readonly scanSql: string;
  /** The pruned search, when the normalisation is the one the stored bounds are of. */
  private readonly prunedSql: string | undefined;

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
    this.searchSql = searchStatement(this.normalization);
    this.scanSql = knowledgeBaseScanStatement(this.normalization);
    this.prunedSql = this.normalization === PRUNED_NORMALIZATION ? prunedSearchStatement() : undefined;
  }

  /** Checks that the records carry their stored documents (storage migration 20) and the words their impact bounds (21); rejects otherwise. */
  start(): Promise<void> {
    this.started ??= this.checkSchema().catch((error: unknown) => {
      this.started = undefined;
      throw error;
    });
    return this.started;
  }

  private async checkSchema(): Promise<void> {
    // One catalogue read for every column the searches need, each with the migration that adds it.
    const required = [
      { table: 'records', column: RECORD_DOCUMENT, migration: 20 },
      { table: 'record_term_stats', column: 'max_impact', migration: 21 },
    ];
    const { rows } = await this.pool.query<{ present: boolean[] }>(
      `SELECT array_agg(EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass(r.t) AND attname = r.c AND NOT attisdropped) ORDER BY r.i) AS present
       FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS r(t, c, i)`,
      [required.map((r) => r.table), required.map((r) => r.column)],
    );
    const missing = required.find((_, i) => !rows[0]?.present[i]);
    if (missing) {
      throw new Error(`the PostgreSQL retriever needs ${missing.table}.${missing.column} (storage migration ${missing.migration}): migrate the store before starting it`);
    }
  }

  async search(scope: RetrievalScope, query: string, k: number): Promise<Retrieval> {
    await this.start();
    const vocabulary = await this.vocabulary(scope);
    const limit = Number.isFinite(k) ? Math.floor(k) : 0;
    const stats = statsWithSynonyms(vocabulary, scope.synonyms);
    if (limit <= 0 || vocabulary.size === 0) return { hits: [], stats };
    const expanded = vocabulary.expand(query, scope.synonyms);
    const words = searchWords(vocabulary, expanded, this.commonShare);
    if (words.size === 0) return { hits: [], stats };
    // The vocabulary's record count chooses the plan only, never the result: a knowledge base that
    // grew since it was read is still searched correctly, by the other statement's plan.
    const small = vocabulary.size <= SCAN_KNOWLEDGE_BASES_UP_TO;
    const split = small || this.prunedSql === undefined ? undefined : pruningSplit(vocabulary, expanded, this.commonShare, limit);
    const { rows } = split
      ? await this.pool.query<HitRow>(this.prunedSql as string, [scope.ragId, lexemeQuery(words), limit, lexemeQuery(split.rare), split.common])
      : await this.pool.query<HitRow>(small ? this.scanSql : this.searchSql, [scope.ragId, lexemeQuery(words), limit]);
    const hits: RetrievedRecord[] = [];
    for (const row of rows) {
      if (!(row.score > 0)) continue;
      hits.push({ recordId: row.record_id, sourceName: row.source_name, title: row.title, text: row.text, kind: row.kind as RecordKind, score: row.score });
    }
    return { hits, stats };
  }

  async invalidate(ragId: string, contentVersion: number | undefined): Promise<void> {
    // Gone: forget it. Changed: bring the vocabulary held forward (the words changed since), so the
    // next question does not wait for it.
    if (contentVersion === undefined) this.entries.delete(ragId);
    else await this.build(ragId, contentVersion);
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
    if (entry && entry.serves >= scope.contentVersion) {
      this.entries.delete(scope.ragId);
      this.entries.set(scope.ragId, entry);
      return entry.vocabulary;
    }
    return this.build(scope.ragId, scope.contentVersion).then((built) => built.vocabulary);
  }

  /** The knowledge base's vocabulary at `version` or later, after the read in progress (if any). */
  private build(ragId: string, version: number): Promise<Entry> {
    const before = this.reading.get(ragId);
    const read = (async () => {
      if (before) await before.catch(() => undefined);
      const held = this.entries.get(ragId);
      if (held && held.serves >= version) return held;
      await this.start();
      return this.read(ragId, version, held);
    })();
    const tracked = read.finally(() => {
      if (this.reading.get(ragId) === tracked) this.reading.delete(ragId);
    });
    this.reading.set(ragId, tracked);
    return tracked;
  }

  /**
   * Reads, in one snapshot, the knowledge base's content version, record count and language
   * sample, then either the words changed since `held` (applied to it in place) or all its words
   * (a new vocabulary, built in slices).
   */
  private async read(ragId: string, version: number, held: Entry | undefined): Promise<Entry> {
    const client = await this.pool.connect();
    let kbVersion = 0;
    let size = 0;
    let sampleHash = '';
    let language: string | undefined;
    let changed: WordRow[] | undefined;
    let all: WordPage[] | undefined;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const kb = await client.query<{ content_version: number; record_count: number }>('SELECT content_version, record_count FROM knowledge_bases WHERE rag_id = $1', [ragId]);
      const row = kb.rows[0];
      if (row) {
        kbVersion = Number(row.content_version);
        size = Number(row.record_count);
        const sample = await client.query<{ text: string }>('SELECT left(text, 200) AS text FROM records WHERE rag_id = $1 ORDER BY seq LIMIT $2', [
          ragId,
          LANGUAGE_SAMPLE_ROWS,
        ]);
        const texts = sample.rows.map((r) => r.text);
        const hash = createHash('sha256');
        for (const text of texts) hash.update(text).update('\u0000');
        sampleHash = hash.digest('base64');
        // Detected again only when the sample changed (the first records, mostly: new ones go last).
        language = held?.sample === sampleHash ? held.vocabulary.language : detectCorpusLanguage(texts);
        if (held && held.vocabulary.language === language && held.version <= kbVersion) {
          const rows = await client.query<WordRow>('SELECT word, ndoc FROM record_term_stats WHERE rag_id = $1 AND version > $2 LIMIT $3', [
            ragId,
            held.version,
            MAX_CHANGES_IN_PLACE + 1,
          ]);
          if (rows.rows.length <= MAX_CHANGES_IN_PLACE) changed = rows.rows;
        }
        if (!changed) all = await readAllWords(client, ragId);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
    let entry: Entry;
    if (held && changed) {
      held.vocabulary.update(wordCounts(changed), size);
      entry = { version: kbVersion, serves: Math.max(version, kbVersion), vocabulary: held.vocabulary, sample: sampleHash };
    } else {
      const vocabulary = await TermVocabulary.inSlices(wordsOfPages(all ?? []), size, language ?? detectCorpusLanguage([]));
      entry = { version: kbVersion, serves: Math.max(version, kbVersion), vocabulary, sample: sampleHash };
    }
    this.entries.delete(ragId);
    this.entries.set(ragId, entry);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return entry;
  }
}
