/**
 * A knowledge base's vocabulary without its postings: for a retriever whose index lives elsewhere
 * (PostgreSQL full-text search), built from the words that index holds and how many records
 * contain each. It gives the answerer what `KnowledgeIndex` gives it (`TermStats`: size,
 * language, document frequencies, question expansion), and maps the analysed terms of an
 * expanded question back to the outside index's words, so retrieval matches variants,
 * compounds and misspellings exactly as the answerer does.
 *
 * Document frequencies are approximate: a term's is the sum of its forms' ("ship", "shipping")
 * document counts, capped at the record count, since a record with two forms is counted twice.
 */
import { ExpansionMemo } from './expansion-memo.js';
import type { TermStats } from '../answering/plan.js';
import { DeletionIndex } from '../language/edits.js';
import type { ExpandedQuery, Vocabulary } from './query-expansion.js';
import { analyzeWords } from './tokenize.js';
import { reverseWord, wordsWithPrefix, wordsWithSuffix } from './sorted-words.js';

/** A word of the outside index and the number of records containing it. */
export interface WordCount {
  word: string;
  docs: number;
}

const SURFACE_MAX_CHARS = 30;
const PLAIN_WORD_RE = /^[a-z]+$/;



export class TermVocabulary implements Vocabulary, TermStats {
  private readonly docFreqs = new Map<string, number>();
  /** Analysed term → the outside index's words that analyse to it. */
  private readonly wordsOfTerm = new Map<string, string[]>();
  /** Surface (normalised, unstemmed) word → its term, as `KnowledgeIndex` keeps them. */
  private readonly surfaceTerms = new Map<string, string>();
  private sortedSurfaces: string[] | null = null;
  private reversedTerms: string[] | null = null;
  private deletionIndex: DeletionIndex | null = null;
  /** Expanded questions (the vocabulary never changes: a new one is built instead). */
  private readonly expansions = new ExpansionMemo(this);

  /**
   * `words`: every word of the outside index for this knowledge base; `size`: its record count;
   * `language`: the language the records are analysed in (detectCorpusLanguage of the records).
   */
  constructor(
    words: Iterable<WordCount>,
    readonly size: number,
    readonly language: string,
  ) {
    for (const { word, docs } of words) {
      const { terms, surfaces } = analyzeWords(word, language, 'index');
      const seen = new Set<string>();
      for (let i = 0; i < terms.length; i++) {
        const term = terms[i] as string;
        const surface = surfaces[i] as string;
        if (surface.length >= 3 && surface.length <= SURFACE_MAX_CHARS && PLAIN_WORD_RE.test(surface) && !this.surfaceTerms.has(surface)) {
          this.surfaceTerms.set(surface, term);
        }
        if (seen.has(term)) continue;
        seen.add(term);
        this.docFreqs.set(term, Math.min(size, (this.docFreqs.get(term) ?? 0) + docs));
        const list = this.wordsOfTerm.get(term);
        if (list) list.push(word);
        else this.wordsOfTerm.set(term, [word]);
      }
    }
  }

  docFreq(term: string): number {
    return this.docFreqs.get(term) ?? 0;
  }

  /** The outside index's words that analyse to `term` (empty when none). */
  wordsOf(term: string): readonly string[] {
    return this.wordsOfTerm.get(term) ?? [];
  }

  /** Memoised like `KnowledgeIndex.expand`: the retriever and the answerer both ask. */
  expand(query: string): ExpandedQuery {
    return this.expansions.expand(query);
  }

  termOfSurface(surface: string): string | undefined {
    return this.surfaceTerms.get(surface);
  }

  surfacesWithPrefix(prefix: string, limit: number): string[] {
    this.sortedSurfaces ??= [...this.surfaceTerms.keys()].sort();
    return wordsWithPrefix(this.sortedSurfaces, prefix, limit);
  }

  termsWithSuffix(suffix: string, limit: number): string[] {
    this.reversedTerms ??= [...this.docFreqs.keys()].map(reverseWord).sort();
    return wordsWithSuffix(this.reversedTerms, suffix, limit);
  }


  surfacesWithinOneEdit(word: string): string[] {
    if (this.deletionIndex === null) {
      const long: string[] = [];
      for (const surface of this.surfaceTerms.keys()) if (surface.length >= 4) long.push(surface);
      this.deletionIndex = new DeletionIndex(long, 4);
    }
    return this.deletionIndex.neighbours(word);
  }
}
