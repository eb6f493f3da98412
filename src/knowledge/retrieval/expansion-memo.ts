/**
 * Expanded questions, memoised per vocabulary: the retriever and the answerer both expand the same
 * question, and a widget's visitors ask the same few questions. Shared by the in-process index and
 * the PostgreSQL retriever's vocabulary. `clear()` when the vocabulary changes.
 */
import { type ExpandedQuery, expandQuery, type Vocabulary } from './query-expansion.js';

/** Questions kept per vocabulary, least recently used dropped first; longer questions are not kept. */
const MAX_ENTRIES = 256;
const MAX_KEPT_QUERY_CHARS = 1000;

export class ExpansionMemo {
  /**
   * Least recently used first (a `Map` keeps insertion order; a hit moves to the end). Made on the
   * first question, and only as large as the questions kept: an LRUCache would allocate its
   * MAX_ENTRIES slots up front, ~6 KB per idle knowledge base (docs/indexing.md, "Memory per knowledge base").
   */
  private cache: Map<string, ExpandedQuery> | null = null;

  constructor(private readonly vocabulary: Vocabulary) {}

  expand(query: string): ExpandedQuery {
    const cache = (this.cache ??= new Map());
    let result = cache.get(query);
    if (result !== undefined) {
      cache.delete(query);
      cache.set(query, result);
      return result;
    }
    result = expandQuery(query, this.vocabulary);
    if (query.length > MAX_KEPT_QUERY_CHARS) return result;
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    // A copy of the key: a slice of a request body would keep the whole body alive.
    cache.set(` ${query}`.slice(1), result);
    return result;
  }

  /** Questions kept. */
  get size(): number {
    return this.cache?.size ?? 0;
  }

  clear(): void {
    this.cache = null;
  }
}
