/**
 * Expanded questions, memoised per vocabulary: the retriever and the answerer both expand the same
 * question, and a widget's visitors ask the same few questions. Shared by the in-process index and
 * the PostgreSQL retriever's vocabulary. `clear()` when the vocabulary changes.
 */
import { LRUCache } from 'lru-cache';
import { type ExpandedQuery, expandQuery, type Vocabulary } from './query-expansion.js';

/** Questions kept per vocabulary, least recently used dropped first; longer questions are not kept. */
const MAX_ENTRIES = 256;
const MAX_KEPT_QUERY_CHARS = 1000;

export class ExpansionMemo {
  /** Made on the first question. */
  private cache: LRUCache<string, ExpandedQuery> | null = null;

  constructor(private readonly vocabulary: Vocabulary) {}

  expand(query: string): ExpandedQuery {
    const cache = (this.cache ??= new LRUCache<string, ExpandedQuery>({ max: MAX_ENTRIES }));
    let result = cache.get(query);
    if (result !== undefined) return result;
    result = expandQuery(query, this.vocabulary);
    // A copy of the key: a slice of a request body would keep the whole body alive.
    if (query.length <= MAX_KEPT_QUERY_CHARS) cache.set(` ${query}`.slice(1), result);
    return result;
  }

  clear(): void {
    this.cache?.clear();
  }
}
