/**
 * The retrieval port: what the query service needs from whatever finds a knowledge base's records
 * for a question. Two implementations, chosen by the composition root (RETRIEVAL_BACKEND): the
 * in-memory BM25F registry (`query/index-registry.ts`, the reference ranking) and PostgreSQL full-text
 * search (`adapters/retrieval/postgres-fts.ts`). Both pass the contract suite in
 * `test/retrieval/contract.ts`; their rankings differ, and that is measured, not specified
 * (docs/quality.md, "Retrieval backends").
 */
import type { TermStats } from '../answering/plan-options.js';
import type { RetrievedRecord } from '../answering/types.js';
import type { SynonymGroups } from '../synonyms.js';

/** Which knowledge base, at which content version. A `KnowledgeBase` read for the query is one. */
export interface RetrievalScope {
  readonly ragId: string;
  /** Content version the caller just read; results reflect at least this version's records. */
  readonly contentVersion: number;
  /** The owner's synonyms (knowledge/synonyms.ts), used by the search and by the returned stats' `expand`. */
  readonly synonyms?: SynonymGroups;
}

/**
 * What the extractive answerer needs of the knowledge base as a whole: its size, language,
 * document frequencies of analysed terms, and the question's words matched to its vocabulary
 * (`expand`, see query-expansion.ts). The answerer refuses off-topic questions with these.
 */
export type CorpusStats = TermStats;

export interface Retrieval {
  /**
   * The knowledge base's records for the question, best first, at most `k`, every score > 0.
   * Only records of `scope.ragId` as of (at least) `scope.contentVersion`.
   */
  hits: RetrievedRecord[];
  /** Statistics of the same knowledge base at the same version. */
  stats: CorpusStats;
}

export interface Retriever {
  /** Which implementation this is (logs, readiness, eval). */
  readonly kind: 'memory' | 'postgres';
  /**
   * Ranked records for `query`. An empty or punctuation-only query finds nothing; a question of
   * stop-words only ("The Who") searches with them (see `searchTermsOf`). `k` ≤ 0 finds nothing.
   */
  search(scope: RetrievalScope, query: string, k: number): Promise<Retrieval>;
  /**
   * The knowledge base's content changed on this instance (`contentVersion` is the new one) or
   * it is gone (`undefined`): drop what is cached for it, and warm the new version if that pays.
   * Other instances notice the change by the version the next query passes to `search`.
   */
  invalidate(ragId: string, contentVersion: number | undefined): Promise<void>;
  /** Releases connections and caches; `search` must not be called afterwards. */
  close(): Promise<void>;
}
