/**
 * In-memory BM25F index for one knowledge base. Each instance keeps its own statistics
 * (document count, document frequencies, average field lengths): tenants never share IDF,
 * which would skew their ranking and leak corpus statistics between them.
 *
 * Fields: `title` (boosted) and `text`. Every field gets its own length normalisation and the
 * weighted pseudo-frequencies are saturated once (BM25F), so a term found in both the title and
 * the text is not counted as two independent matches. A `qa` record has its question as title
 * and at the start of its text, so questions weigh most without special-casing the kind.
 *
 * Statistics are integer sums, so removing and re-adding records yields bit-identical scores
 * to a fresh build.
 */
import { ExpansionMemo } from './expansion-memo.js';
import { detectCorpusLanguage } from '../language/detect.js';
import { DeletionIndex } from '../language/edits.js';
import { type Bm25Params, DEFAULT_BM25, idf, lengthNorm, saturate } from './bm25.js';
import type { ExpandedQuery, Vocabulary } from './query-expansion.js';
import { type AnalysedWords, analyzeWords } from './tokenize.js';
import { topK } from './top-k.js';
import { reverseWord, wordsWithPrefix, wordsWithSuffix } from './sorted-words.js';

export interface IndexableRecord {
  recordId: string;
  title: string | null;
  text: string;
  sourceName: string;
}

export interface Hit {
  recordId: string;
  score: number;
}

export interface IndexOptions extends Partial<Bm25Params> {
  /** Weight of a title occurrence relative to a text occurrence. */
  titleWeight?: number;
  /** ISO 639-1 language of the analysis; by default the language most of the records are in. */
  language?: string;
}

/** A weighted term of a search: an indexed term and how much its matches count (0…1). */
export interface WeightedTerm {
  term: string;
  weight: number;
}

const SURFACE_MAX_CHARS = 30;
const PLAIN_WORD_RE = /^[a-z]+$/;

/** Index of the first element of sorted `list` that is ≥ `value`. */


interface Doc {
  record: IndexableRecord;
  /** Insertion order; breaks score ties so results are stable. */
  seq: number;
  titleLen: number;
  textLen: number;
  /** Distinct terms, to find the postings again on removal. */
  terms: string[];
  /** Score accumulator of the search in progress, valid when `epoch` equals the index's. */
  acc: number;
  epoch: number;
  /** Length normalisations of the title and text, valid when `normVersion` equals the index's `version`. */
  titleNorm: number;
  textNorm: number;
  normVersion: number;
}

interface Posting {
  doc: Doc;
  titleTf: number;
  textTf: number;
}

export const DEFAULT_TITLE_WEIGHT = 2;

export class KnowledgeIndex implements Vocabulary {
  readonly language: string;
  private readonly docs = new Map<string, Doc>();
  /** Surface (unstemmed) words of the records and their terms, for variant and spelling matches. */
  private readonly surfaceTerms = new Map<string, string>();
  private sortedSurfaces: string[] | null = null;
  private reversedTerms: string[] | null = null;
  private deletionIndex: DeletionIndex | null = null;
  /** Expanded questions, valid for `expansionsVersion` of this index. */
  private readonly expansions = new ExpansionMemo(this);
  private expansionsVersion = -1;
  // Posting lists are plain arrays: far cheaper to build and scan than a map per term.
  private readonly postings = new Map<string, Posting[]>();
  private epoch = 0;
  /** Changes whenever the average field lengths may have (records added or removed). */
  private version = 0;
  private totalTitleLen = 0;
  private totalTextLen = 0;
  private nextSeq = 0;
  private readonly k1: number;
  private readonly b: number;
  private readonly titleWeight: number;

  constructor(options: IndexOptions = {}) {
    this.k1 = options.k1 ?? DEFAULT_BM25.k1;
    this.b = options.b ?? DEFAULT_BM25.b;
    this.titleWeight = options.titleWeight ?? DEFAULT_TITLE_WEIGHT;
    this.language = options.language ?? 'en';
  }

  /** An index of `records`, in their language unless `options.language` says otherwise. */
  static build(records: readonly IndexableRecord[], options: IndexOptions = {}): KnowledgeIndex {
    const language = options.language ?? detectCorpusLanguage(records.map((r) => r.text));
    const index = new KnowledgeIndex({ ...options, language });
    index.add(records);
    return index;
  }

  get size(): number {
    return this.docs.size;
  }

  has(recordId: string): boolean {
    return this.docs.has(recordId);
  }

  get(recordId: string): IndexableRecord | undefined {
    return this.docs.get(recordId)?.record;
  }

  /** Adds records; a record whose id is already indexed is replaced (and moves to the end of the order). */
  add(records: readonly IndexableRecord[]): void {
    for (const record of records) {
      if (this.docs.has(record.recordId)) this.remove([record.recordId]);
      const title = record.title ? analyzeWords(record.title, this.language, 'index') : null;
      const text = analyzeWords(record.text, this.language, 'index');
      const titleTerms = title?.terms ?? [];
      const textTerms = text.terms;
      if (title) this.addSurfaces(title);
      this.addSurfaces(text);
      const doc: Doc = {
        record,
        seq: this.nextSeq++,
        titleLen: titleTerms.length,
        textLen: textTerms.length,
        terms: [],
        acc: 0,
        epoch: -1,
        titleNorm: 1,
        textNorm: 1,
        normVersion: -1,
      };
      for (const term of titleTerms) this.postingFor(doc, term).titleTf++;
      for (const term of textTerms) this.postingFor(doc, term).textTf++;
      this.docs.set(record.recordId, doc);
      this.totalTitleLen += doc.titleLen;
      this.totalTextLen += doc.textLen;
    }
    this.version++;
  }

  /** Remembers the surface words of a record (plain words of 3 to 30 letters) for variant and spelling matches. */
  private addSurfaces(words: AnalysedWords): void {
    const { surfaces, terms } = words;
    for (let i = 0; i < surfaces.length; i++) {
      const surface = surfaces[i] as string;
      if (surface.length < 3 || surface.length > SURFACE_MAX_CHARS || this.surfaceTerms.has(surface) || !PLAIN_WORD_RE.test(surface)) continue;
      // A copy, so that the map does not keep the record's whole normalised text alive.
      this.surfaceTerms.set(` ${surface}`.slice(1), ` ${terms[i] as string}`.slice(1));
      this.sortedSurfaces = null;
      this.reversedTerms = null;
      this.deletionIndex = null;
    }
  }

  /** Removes records by id; unknown ids are ignored. Returns how many were removed. */
  remove(recordIds: Iterable<string>): number {
    const gone = new Set<Doc>();
    const affected = new Set<string>();
    for (const id of recordIds) {
      const doc = this.docs.get(id);
      if (!doc) continue;
      gone.add(doc);
      for (const term of doc.terms) affected.add(term);
      this.docs.delete(id);
      this.totalTitleLen -= doc.titleLen;
      this.totalTextLen -= doc.textLen;
    }
    // One filter per affected list, so removing many records stays linear.
    for (const term of affected) {
      const kept = (this.postings.get(term) ?? []).filter((p) => !gone.has(p.doc));
      if (kept.length > 0) this.postings.set(term, kept);
      else this.postings.delete(term);
    }
    this.version++;
    return gone.size;
  }

  /** Number of records containing an analysed term. */
  docFreq(term: string): number {
    return this.postings.get(term)?.length ?? 0;
  }

  /** Inverse document frequency of an analysed term in this index (highest for unseen terms). */
  idf(term: string): number {
    return idf(this.docs.size, this.docFreq(term));
  }

  /**
   * Records matching the query, best first (ties in insertion order), at most `limit`.
   * Stop-words are ignored unless the query has nothing else, so "The Who" still searches.
   */
  search(query: string, limit = 10): Hit[] {
    const max = Number.isFinite(limit) ? Math.floor(limit) : 0;
    if (max <= 0 || this.docs.size === 0) return [];
    return this.searchWeighted(searchTermsOf(this.expand(query)), max);
  }

  /**
   * The question's words matched to this index's terms (exact, variant, compound, corrected
   * spelling), with their general-language informativeness. Memoised per question until the
   * index changes: the search and the answerer both ask.
   */
  expand(query: string): ExpandedQuery {
    if (this.expansionsVersion !== this.version) {
      this.expansions.clear();
      this.expansionsVersion = this.version;
    }
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
    this.reversedTerms ??= [...this.postings.keys()].map(reverseWord).sort();
    return wordsWithSuffix(this.reversedTerms, suffix, limit, (term) => this.docFreq(term) > 0);
  }


  surfacesWithinOneEdit(word: string): string[] {
    if (this.deletionIndex === null) {
      const long: string[] = [];
      for (const surface of this.surfaceTerms.keys()) if (surface.length >= 4) long.push(surface);
      this.deletionIndex = new DeletionIndex(long, 4);
    }
    return this.deletionIndex.neighbours(word);
  }

  /** Ranks by weighted terms: each term's BM25F contribution is multiplied by its weight. */
  searchWeighted(terms: readonly WeightedTerm[], limit: number): Hit[] {
    const n = this.docs.size;
    if (n === 0 || limit <= 0) return [];
    const avgTitle = this.totalTitleLen / n;
    const avgText = this.totalTextLen / n;
    // Accumulate on the documents themselves (reset lazily by epoch): no map per search.
    const epoch = ++this.epoch;
    const version = this.version;
    const touched: Doc[] = [];
    for (const { term, weight } of terms) {
      const list = this.postings.get(term);
      if (!list) continue;
      const w = weight * idf(n, list.length);
      for (const p of list) {
        const doc = p.doc;
        if (doc.epoch !== epoch) {
          doc.epoch = epoch;
          doc.acc = 0;
          touched.push(doc);
          // A document's length normalisations depend only on the averages: computed once per change of the index.
          if (doc.normVersion !== version) {
            doc.titleNorm = lengthNorm(doc.titleLen, avgTitle, this.b);
            doc.textNorm = lengthNorm(doc.textLen, avgText, this.b);
            doc.normVersion = version;
          }
        }
        const tf = (this.titleWeight * p.titleTf) / doc.titleNorm + p.textTf / doc.textNorm;
        doc.acc += w * saturate(tf, this.k1);
      }
    }
    // Only documents with a positive score are ranked (filtered in place: `touched` is ours).
    let kept = 0;
    for (const d of touched) if (d.acc > 0) touched[kept++] = d;
    touched.length = kept;
    const hits = topK(touched, limit, (x, y) => x.acc > y.acc || (x.acc === y.acc && x.seq < y.seq));
    return hits.map((d) => ({ recordId: d.record.recordId, score: d.acc }));
  }

  /**
   * The document's posting for a term, created on first use. Documents are added one at a time,
   * so the document being added always owns the last posting of a list: no per-document map.
   */
  private postingFor(doc: Doc, term: string): Posting {
    let list = this.postings.get(term);
    if (!list) {
      list = [];
      this.postings.set(term, list);
    }
    const last = list[list.length - 1];
    if (last?.doc === doc) return last;
    const p: Posting = { doc, titleTf: 0, textTf: 0 };
    list.push(p);
    doc.terms.push(term);
    return p;
  }
}

/**
 * The weighted terms an expanded question searches with: every match of every content word at
 * its credit (a term matched by several words counts once, at its best credit); a question of
 * stop-words only ("The Who") searches with them.
 */
export function searchTermsOf(expanded: ExpandedQuery): WeightedTerm[] {
  const best = new Map<string, number>();
  for (const word of expanded.words) {
    for (const m of word.matches) best.set(m.term, Math.max(best.get(m.term) ?? 0, m.credit));
  }
  if (expanded.words.length === 0) for (const t of expanded.stopTerms) best.set(t, 1);
  return [...best].map(([term, weight]) => ({ term, weight }));
}
