/**
 * Expanded questions, memoised per vocabulary: the retriever and the answerer both expand the same
 * question, and a widget's visitors ask the same few questions. Below the questions, the matches
 * of each word: a new question is mostly words asked before ("hi", "thanks", "delivery"), and
 * matching a word the knowledge base does not use (variants, compounds, spelling neighbours,
 * related words) was most of a new question's expansion. Shared by the in-process index and the
 * PostgreSQL retriever's vocabulary. `clear()` when the vocabulary changes: both depend on it.
 *
 * A question is kept for later requests only once it has been asked twice (docs/indexing.md,
 * "Session 26"). Kept at its first sighting, every new question's expansion lived until 256 newer
 * questions pushed it out: long enough for V8 to copy it into the old generation, where it then
 * died, so a stream of new questions made every young-generation collection copy ~0.5 KB per
 * question and the old generation fill with garbage. Questions seen once are remembered as 32-bit
 * hashes in a small typed array (no object per question); the last few expansions are kept a
 * moment for the rest of their own request (retrieval, then the answer, expand the same text).
 */
import { type ExpandedQuery, expandQuery } from './query-expansion.js';
import { matchWord, type WordMatch } from './match-word.js';
import type { CompiledSynonyms } from './owner-synonyms.js';
import type { Vocabulary } from './term-matches.js';

/** Questions kept per vocabulary, least recently used dropped first; longer questions are not kept. */
const MAX_ENTRIES = 256;
const MAX_KEPT_QUERY_CHARS = 1000;
/** Words' matches kept per vocabulary (about 150 bytes each), the oldest dropped first. */
const MAX_WORDS = 512;
/** Questions seen once, as hashes (a power of two; 1 KB); a second sighting within ~this many new questions keeps the question. */
const SEEN_SLOTS = 256;
/** The latest expansions, for the rest of their request, whether kept or not. */
const RECENT = 4;

/** FNV-1a over the UTF-16 code units, never 0 (0 marks an empty slot). */
function textHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h === 0 ? 1 : h;
}

export class ExpansionMemo {
  /**
   * Least recently used first (a `Map` keeps insertion order; a hit moves to the end). Made on the
   * first question, and only as large as the questions kept: an LRUCache would allocate its
   * MAX_ENTRIES slots up front, ~6 KB per idle knowledge base (docs/indexing.md, "Memory per knowledge base").
   */
  private cache: Map<string, ExpandedQuery> | null = null;

  /** Word matches by `isName`, stem and surface; made on the first new question. */
  private words: Map<string, WordMatch> | null = null;

  /** Hashes of questions asked once (`textHash`, by its low bits); made on the first new question. */
  private seen: Int32Array | null = null;

  /** The last RECENT questions expanded and their expansions, the newest at `recentAt - 1`. */
  private readonly recentQueries: (string | undefined)[] = [];
  private readonly recentResults: (ExpandedQuery | undefined)[] = [];
  private recentAt = 0;

  /** The owner's synonyms the kept expansions were made with (a knowledge base has one list at a time). */
  private synonyms: CompiledSynonyms | undefined = undefined;

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

  /** `query` expanded, with the owner's `synonyms` (compiledSynonyms): new ones forget the questions kept, not the words' matches, which do not depend on them. */
  expand(query: string, synonyms?: CompiledSynonyms): ExpandedQuery {
    if (synonyms !== this.synonyms) {
      this.forgetQuestions();
      this.synonyms = synonyms;
    }
    const cache = this.cache;
    let result = cache?.get(query);
    if (result !== undefined) {
      // A kept question (asked twice before): moved to the most recently used end.
      (cache as Map<string, ExpandedQuery>).delete(query);
      (cache as Map<string, ExpandedQuery>).set(query, result);
      return result;
    }
    for (let i = 0; i < this.recentQueries.length; i++) {
      if (this.recentQueries[i] === query) return this.recentResults[i] as ExpandedQuery;
    }
    result = expandQuery(query, this.vocabulary, undefined, this.matchWord, synonyms);
    this.recentQueries[this.recentAt] = query;
    this.recentResults[this.recentAt] = result;
    this.recentAt = (this.recentAt + 1) % RECENT;
    if (query.length <= MAX_KEPT_QUERY_CHARS && this.seenBefore(query)) this.keep(query, result);
    return result;
  }

  /** Whether `query` was expanded before (as far as its hash says); if not, it is remembered as seen. */
  private seenBefore(query: string): boolean {
    const hash = textHash(query);
    const seen = (this.seen ??= new Int32Array(SEEN_SLOTS));
    const slot = hash & (SEEN_SLOTS - 1);
    if (seen[slot] === hash) return true;
    seen[slot] = hash;
    return false;
  }

  private keep(query: string, result: ExpandedQuery): void {
    const cache = (this.cache ??= new Map());
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    // A copy of the key: a slice of a request body would keep the whole body alive.
    cache.set(` ${query}`.slice(1), result);
  }

  /** Questions kept. */
  get size(): number {
    return this.cache?.size ?? 0;
  }

  /** About how much memory the memo holds, for the registry's budget (an expansion ~400 bytes, a word's matches ~200). */
  approximateBytes(): number {
    const kept = this.cache === null || this.cache.size === 0 ? 0 : 600 + this.cache.size * 400;
    const seen = this.seen === null ? 0 : SEEN_SLOTS * 4 + 100;
    return kept + seen + this.recentQueries.length * 400 + this.wordCount * 200;
  }

  /** Words whose matches are kept. */
  get wordCount(): number {
    return this.words?.size ?? 0;
  }

  clear(): void {
    this.words = null;
    this.forgetQuestions();
  }

  private forgetQuestions(): void {
    this.cache = null;
    this.seen = null;
    this.recentQueries.length = 0;
    this.recentResults.length = 0;
    this.recentAt = 0;
  }
}
