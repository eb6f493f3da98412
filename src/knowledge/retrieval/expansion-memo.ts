/**
 * Expanded questions, memoised per vocabulary: the retriever and the answerer both expand the same
 * question, and a widget's visitors ask the same few questions. Below the questions, the matches
 * of each word: a new question is mostly words asked before ("hi", "thanks", "delivery"), and
 * matching a word the knowledge base does not use (variants, compounds, spelling neighbours,
 * related words) was most of a new question's expansion. Shared by the in-process index and the
 * PostgreSQL retriever's vocabulary. `clear()` when the vocabulary changes: both depend on it.
 */
import { type ExpandedQuery, expandQuery, matchWord, type Vocabulary, type WordMatch } from './query-expansion.js';

/** Questions kept per vocabulary, least recently used dropped first; longer questions are not kept. */
const MAX_ENTRIES = 256;
const MAX_KEPT_QUERY_CHARS = 1000;
/** Words' matches kept per vocabulary (about 150 bytes each), the oldest dropped first. */
const MAX_WORDS = 512;

export class ExpansionMemo {
  /**
   * Least recently used first (a `Map` keeps insertion order; a hit moves to the end). Made on the
   * first question, and only as large as the questions kept: an LRUCache would allocate its
   * MAX_ENTRIES slots up front, ~6 KB per idle knowledge base (docs/indexing.md, "Memory per knowledge base").
   */
  private cache: Map<string, ExpandedQuery> | null = null;

  /** Word matches by `isName`, stem and surface; made on the first new question. */
  private words: Map<string, WordMatch> | null = null;

  constructor(private readonly vocabulary: Vocabulary) {}

  /** `matchWord` on this vocabulary, remembered. */
  private readonly matchWord = (surface: string, term: string, isName: boolean): WordMatch => {
    const words = (this.words ??= new Map());
    // The stem and the surface joined by a character neither can hold (both are analysed words).
    const key = `${isName ? '1' : '0'}${term}\u0000${surface}`;
    let found = words.get(key);
    if (found === undefined) {
      found = matchWord(this.vocabulary, surface, term, isName);
      if (words.size >= MAX_WORDS) words.delete(words.keys().next().value as string);
      words.set(key, found);
    }
    return found;
  };

  expand(query: string): ExpandedQuery {
    const cache = (this.cache ??= new Map());
    let result = cache.get(query);
    if (result !== undefined) {
      cache.delete(query);
      cache.set(query, result);
      return result;
    }
    result = expandQuery(query, this.vocabulary, undefined, this.matchWord);
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

  /** Words whose matches are kept. */
  get wordCount(): number {
    return this.words?.size ?? 0;
  }

  clear(): void {
    this.cache = null;
    this.words = null;
  }
}
