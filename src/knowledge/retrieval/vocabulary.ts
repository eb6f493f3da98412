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
 *
 * A large vocabulary is built in time slices (`TermVocabulary.inSlices`: ~100,000 words took
 * ~0.8 s of analysis) and changed in place by `update` (the words an upload changed), which
 * leaves it as a new build from the changed word list would be (test/retrieval/term-vocabulary-update.test.ts).
 * Its spelling index is made in slices too, once a question first needs it, the surfaces scanned
 * meanwhile (test/retrieval/vocabulary-spelling-slices.test.ts); its maps are split (sharded-map.ts).
 */
import { compiledSynonyms } from './owner-synonyms.js';
import type { SynonymGroups } from '../synonyms.js';
import { ExpansionMemo } from './expansion-memo.js';
import { ShardedMap } from './sharded-map.js';
import type { TermStats } from '../answering/plan-options.js';
import { DeletionIndex, neighboursByScan, SCAN_AT_MOST, withinOneEdit } from '../language/edits.js';
import { inSlices, Slices } from '../../time-slices.js';
import type { ExpandedQuery } from './query-expansion.js';
import type { Vocabulary } from './term-matches.js';
import { analyzeWords } from './tokenize.js';
import { insertSorted, removeSorted, reverseWord, wordsWithPrefix, wordsWithSuffix } from './sorted-words.js';

/** A word of the outside index and the number of records containing it. */
export interface WordCount {
  word: string;
  docs: number;
}

const SURFACE_MAX_CHARS = 30;
const PLAIN_WORD_RE = /^[a-z]+$/;
/** Surfaces added after the spelling index was made that are searched beside it before it is made again. */
const MAX_SURFACES_SINCE_INDEX = 512;
/** Surfaces added to a spelling index being made between two looks at the clock (~8 keys each). */
const SPELLING_STEP = 64;

/**
 * Terms an outside index's word also stands for, beyond its own analysis. The outside index keeps
 * words lower-cased, so its "us" is the pronoun and "US", the country, which the analysis chain
 * reads as "usa" when it sees the capitals (tokenize.ts, `usAsCountry`): a question about the
 * country then still meets the records that name it, with the pronoun's, as it did before.
 */
function caseLostTerms(word: string, language: string): readonly string[] {
  return language === 'en' && word === 'us' ? ['usa'] : [];
}

/** The surfaces kept for variant and spelling look-ups, as `KnowledgeIndex` keeps them. */
const keptSurface = (surface: string): boolean => surface.length >= 3 && surface.length <= SURFACE_MAX_CHARS && PLAIN_WORD_RE.test(surface);

export class TermVocabulary implements Vocabulary, TermStats {
  /** Analysed term → the summed record counts of its words (capped at `size` when read). */
  private readonly docSums = new ShardedMap<number>();
  /** Analysed term → the outside index's words that analyse to it: the word itself when it is one (most terms), else a list. */
  private readonly wordsOfTerm = new ShardedMap<string | string[]>();
  /** Surface (normalised, unstemmed) word → its term, as `KnowledgeIndex` keeps them. */
  private readonly surfaceTerms = new ShardedMap<string>();
  /** Surface → how many of the words give it (it goes with the last one). */
  private readonly surfaceUses = new ShardedMap<number>();
  /** The outside index's words and their record counts, as `update` last set them. */
  private readonly wordDocs = new ShardedMap<number>();
  private sortedSurfaces: string[] | null = null;
  private reversedSurfaces: string[] | null = null;
  private reversedTerms: string[] | null = null;
  private deletionIndex: DeletionIndex | null = null;
  /** The spelling index being made in slices (a large vocabulary's), if any; `deletionIndex` once made. */
  private spelling: { words: string[]; done: Promise<void> } | null = null;
  /** Spelling candidates added since `deletionIndex` was made (or began to be), searched after it (it is made again past MAX_SURFACES_SINCE_INDEX). */
  private surfacesSinceIndex: string[] = [];
  /** Whether `update` ran since `deletionIndex` was made (or began to be). */
  private changedSinceIndex = false;
  private records: number;
  /** Expanded questions, cleared by `update`. */
  private readonly expansions = new ExpansionMemo(this);

  /**
   * `words`: every word of the outside index for this knowledge base; `size`: its record count;
   * `language`: the language the records are analysed in (detectCorpusLanguage of the records).
   */
  constructor(
    words: Iterable<WordCount>,
    size: number,
    readonly language: string,
  ) {
    this.records = size;
    for (const { word, docs } of words) this.addWord(word, docs);
  }

  /** As the constructor, with other work let run between slices of the analysis (src/time-slices.ts). */
  static async inSlices(words: Iterable<WordCount>, size: number, language: string, slices = new Slices()): Promise<TermVocabulary> {
    const vocabulary = new TermVocabulary([], size, language);
    await inSlices(vocabulary.adding(words), slices);
    return vocabulary;
  }

  private *adding(words: Iterable<WordCount>): Generator<void, void> {
    for (const { word, docs } of words) {
      this.addWord(word, docs);
      yield;
    }
  }

  /** The record count. */
  get size(): number {
    return this.records;
  }

  /** Words of the outside index held. */
  get wordCount(): number {
    return this.wordDocs.size;
  }

  /**
   * Sets the record counts of `changes`' words (0: no record has it any more) and the record count:
   * the vocabulary is then the one the constructor makes from the word list so changed.
   */
  update(changes: Iterable<WordCount>, size: number): void {
    this.records = size;
    this.changedSinceIndex = this.deletionIndex !== null || this.spelling !== null;
    for (const { word, docs } of changes) {
      const before = this.wordDocs.get(word) ?? 0;
      if (docs === before) continue;
      if (before === 0) this.addWord(word, docs);
      else if (docs <= 0) this.removeWord(word, before);
      else {
        this.wordDocs.set(word, docs);
        for (const term of this.termsOfWord(word)) this.docSums.set(term, (this.docSums.get(term) ?? 0) + docs - before);
      }
    }
    this.expansions.clear();
  }

  private addWord(word: string, docs: number): void {
    if (docs <= 0) return;
    this.wordDocs.set(word, docs);
    const { terms, surfaces } = analyzeWords(word, this.language, 'index');
    for (let i = 0; i < surfaces.length; i++) {
      const surface = surfaces[i] as string;
      if (!keptSurface(surface)) continue;
      const uses = this.surfaceUses.get(surface) ?? 0;
      this.surfaceUses.set(surface, uses + 1);
      if (uses > 0) continue;
      this.surfaceTerms.set(surface, terms[i] as string);
      if (this.sortedSurfaces) insertSorted(this.sortedSurfaces, surface);
      if (this.reversedSurfaces) insertSorted(this.reversedSurfaces, reverseWord(surface));
      if ((this.deletionIndex || this.spelling) && surface.length >= 4) {
        this.surfacesSinceIndex.push(surface);
        if (this.surfacesSinceIndex.length > MAX_SURFACES_SINCE_INDEX) {
          this.deletionIndex = null;
          this.spelling = null;
        }
      }
    }
    for (const term of new Set([...terms, ...caseLostTerms(word, this.language)])) {
      const sum = this.docSums.get(term);
      this.docSums.set(term, (sum ?? 0) + docs);
      const held = this.wordsOfTerm.get(term);
      if (held === undefined) this.wordsOfTerm.set(term, word);
      else if (typeof held === 'string') this.wordsOfTerm.set(term, [held, word]);
      else held.push(word);
      if (sum === undefined && this.reversedTerms) insertSorted(this.reversedTerms, reverseWord(term));
    }
  }

  private removeWord(word: string, docs: number): void {
    this.wordDocs.delete(word);
    const { terms, surfaces } = analyzeWords(word, this.language, 'index');
    for (const surface of surfaces) {
      if (!keptSurface(surface)) continue;
      const uses = (this.surfaceUses.get(surface) ?? 0) - 1;
      if (uses > 0) {
        this.surfaceUses.set(surface, uses);
        continue;
      }
      this.surfaceUses.delete(surface);
      this.surfaceTerms.delete(surface);
      if (this.sortedSurfaces) removeSorted(this.sortedSurfaces, surface);
      if (this.reversedSurfaces) removeSorted(this.reversedSurfaces, reverseWord(surface));
    }
    for (const term of new Set([...terms, ...caseLostTerms(word, this.language)])) {
      const list = this.wordsOf(term).filter((w) => w !== word);
      if (list.length > 0) {
        this.wordsOfTerm.set(term, list.length === 1 ? (list[0] as string) : list);
        this.docSums.set(term, (this.docSums.get(term) ?? 0) - docs);
        continue;
      }
      this.wordsOfTerm.delete(term);
      this.docSums.delete(term);
      if (this.reversedTerms) removeSorted(this.reversedTerms, reverseWord(term));
    }
  }

  /** The distinct terms `word` analyses to. */
  private termsOfWord(word: string): Set<string> {
    return new Set([...analyzeWords(word, this.language, 'index').terms, ...caseLostTerms(word, this.language)]);
  }

  docFreq(term: string): number {
    return Math.min(this.records, this.docSums.get(term) ?? 0);
  }

  /** The outside index's words that analyse to `term` (empty when none). */
  wordsOf(term: string): readonly string[] {
    const held = this.wordsOfTerm.get(term);
    return held === undefined ? [] : typeof held === 'string' ? [held] : held;
  }

  /** Memoised like `KnowledgeIndex.expand`: the retriever and the answerer both ask. */
  expand(query: string, synonyms?: SynonymGroups): ExpandedQuery {
    return this.expansions.expand(query, compiledSynonyms(synonyms, this.language));
  }

  termOfSurface(surface: string): string | undefined {
    return this.surfaceTerms.get(surface);
  }

  surfacesWithPrefix(prefix: string, limit: number): string[] {
    this.sortedSurfaces ??= [...this.surfaceTerms.keys()].sort();
    return wordsWithPrefix(this.sortedSurfaces, prefix, limit);
  }

  surfacesWithSuffix(suffix: string, limit: number): string[] {
    this.reversedSurfaces ??= [...this.surfaceTerms.keys()].map(reverseWord).sort();
    return wordsWithSuffix(this.reversedSurfaces, suffix, limit);
  }

  termsWithSuffix(suffix: string, limit: number): string[] {
    this.reversedTerms ??= [...this.docSums.keys()].map(reverseWord).sort();
    return wordsWithSuffix(this.reversedTerms, suffix, limit);
  }


  surfacesWithinOneEdit(word: string): string[] {
    if (this.deletionIndex === null && this.spelling === null) {
      // A large vocabulary's spelling index is made in slices (at once, ~100,000 surfaces held the
      // HTTP thread 0.7–1.4 s: issue 14, head of line); until it is there, its words are scanned.
      if (this.surfaceTerms.size > SCAN_AT_MOST) this.startSpellingIndex();
      else {
        this.deletionIndex = new DeletionIndex(this.longSurfaces(), 4);
        this.surfacesSinceIndex = [];
        this.changedSinceIndex = false;
      }
    }
    const found = this.deletionIndex ? this.deletionIndex.neighbours(word) : neighboursByScan((this.spelling as { words: string[] }).words, word, 4);
    if (!this.changedSinceIndex) return found;
    // Changed by `update` since the index was made (or began to be): without the surfaces gone, with those added.
    const now = new Set(found.filter((s) => this.surfaceTerms.has(s)));
    for (const s of this.surfacesSinceIndex) if (s !== word && this.surfaceTerms.has(s) && withinOneEdit(word, s)) now.add(s);
    return [...now].sort();
  }

  /** Resolves once the spelling index being made, if any, is there or dropped (tests). */
  spellingSettled(): Promise<void> {
    return this.spelling?.done ?? Promise.resolve();
  }

  private longSurfaces(): string[] {
    const long: string[] = [];
    for (const surface of this.surfaceTerms.keys()) if (surface.length >= 4) long.push(surface);
    return long;
  }

  /**
   * Starts making the spelling index of the surfaces held now (`words`, scanned until it is made)
   * in slices. Surfaces added meanwhile are kept in `surfacesSinceIndex` and those removed are
   * filtered out when it is read, as for changes after it is made; past MAX_SURFACES_SINCE_INDEX
   * added, it is dropped and made again.
   */
  private startSpellingIndex(): void {
    const building = { words: this.longSurfaces(), done: Promise.resolve() };
    this.spelling = building;
    this.surfacesSinceIndex = [];
    this.changedSinceIndex = false;
    const wanted = () => this.spelling === building;
    building.done = DeletionIndex.inSlices(building.words, 4, SPELLING_STEP, wanted).then(
      (made) => {
        if (made === undefined || !wanted()) return;
        this.deletionIndex = made;
        this.spelling = null;
      },
      () => {
        if (this.spelling === building) this.spelling = null;
      },
    );
  }
}
