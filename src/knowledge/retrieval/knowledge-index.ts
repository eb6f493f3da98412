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
 * Compact layout (issue 14, docs/indexing.md "Indexing: incremental, off the event loop,
 * compact"): terms have integer ids; records have slots (their order: ties rank by it). Postings
 * live in typed arrays by term id (`CompactPostings`, one range per term) plus, for the records
 * added since, a short flat list per term; a removed record's slot is marked dead and skipped
 * until the next compaction folds the lists into the arrays. Statistics are integer counts kept
 * exactly on every add and remove, and the surface words keep the order a fresh build would give
 * them, so an index changed record by record ranks exactly as one built from scratch.
 */
import { ExpansionMemo } from './expansion-memo.js';
import { compiledSynonyms } from './owner-synonyms.js';
import type { SynonymGroups } from '../synonyms.js';
import { detectCorpusLanguage } from '../language/detect.js';
import { DeletionIndex, neighboursByScan, SCAN_AT_MOST } from '../language/edits.js';
import { type Bm25Params, DEFAULT_BM25, idf } from './bm25.js';
import { type CompactIndex, type CompactIndexSource, type CountArray, countArray, countsHold, type OffsetArray, offsetArray, type SlotArray, slotArray, type TfArray, tfArray } from './compact-index.js';
import type { ExpandedQuery } from './query-expansion.js';
import type { Vocabulary } from './term-matches.js';
import { indexedAnswerTermsIn } from '../language/answer-types.js';
import { type AnalysedWords, analyzeWords } from './tokenize.js';
import { reverseWord, wordsEndingWith } from './sorted-words.js';
import { type PostingsView, searchAllPostings, searchMaxScore } from './max-score.js';
import { idAt, type IdList, idList, idListBytes } from './id-lists.js';
import { ColumnPacker, PACK_AT_MOST_BYTES, sharesBuffer } from './packed-columns.js';
import { PackedWords } from './packed-words.js';
import { StringColumn } from './string-column.js';
import { SurfaceWords } from './surface-words.js';
import { WordIds, WordsReadBy } from './word-ids.js';

export interface IndexableRecord {
  recordId: string;
  title: string | null;
  text: string;
  sourceName: string;
  /** What kind of record it is (qa, passage…): kept for answers, not indexed. */
  kind?: string | undefined;
}

/**
 * Records by slot: a list, or records made one at a time as they are read (index-snapshot.ts: a
 * load does not hold 100,000 record objects at once only to copy their fields).
 */
export interface RecordsBySlot {
  readonly length: number;
  at(slot: number): IndexableRecord | undefined;
  /** The records' ids and texts, by slot, which the index then holds as they are (`at` still gives them too). */
  readonly columns?: { readonly ids: StringColumn; readonly texts: StringColumn };
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
  /**
   * Vocabularies of at most this many words are scanned by the spelling look-up rather than
   * holding a spelling table (default SCAN_AT_MOST; the answers are the same).
   */
  scanAtMost?: number;
}

/** A weighted term of a search: an indexed term and how much its matches count (0…1). */
export interface WeightedTerm {
  term: string;
  weight: number;
}

export const DEFAULT_TITLE_WEIGHT = 2;

/** Words per step of a spelling table made in slices (~8 deletion keys each; ~1 µs a key). */
const SPELLING_STEP = 256;

/** Postings added since the last compaction, per term id: [slot, titleTf, textTf, slot, …]. */
type RecentPostings = Map<number, number[]>;
/** No recent postings: one empty map for every index that has none (most, most of the time), never written. */
const NO_RECENT: RecentPostings = new Map();

const grown = <T extends Int32Array | Uint16Array | Uint8Array>(array: T, need: number, make: (n: number) => T): T => {
  if (need <= array.length) return array;
  const next = make(Math.max(need, array.length * 2, 16));
  next.set(array);
  return next;
};

export class KnowledgeIndex implements Vocabulary {
  readonly language: string;
  /** Whether the language was given (then it never changes) rather than detected from the records. */
  private languagePinned: boolean;
  private readonly k1: number;
  private readonly b: number;
  private readonly titleWeight: number;
  private readonly scanAtMost: number;

  // Terms: id by term (a table over `terms`, which holds each term once, packed: packed-words.ts), term by id, live records containing each.
  private readonly terms = new PackedWords();
  private readonly termIds = new WordIds(this.terms);
  /** Records containing each term: as narrow as the slots allow (`keep` widens it). */
  private df: CountArray = new Uint8Array(16);
  private zeroTerms = 0;

  // Postings: compacted ranges for terms below `baseTerms`, then the recent lists.
  private baseTerms = 0;
  // As narrow as their values allow (compact-index.ts): 16-bit slots and offsets, 8-bit frequencies in a small index.
  private baseStart: OffsetArray = new Uint16Array(1);
  private baseSlot: SlotArray = new Uint16Array(0);
  private baseTitleTf: TfArray = new Uint8Array(0);
  private baseTextTf: TfArray = new Uint8Array(0);
  private recent: RecentPostings = NO_RECENT;
  private recentCount = 0;

  // Records by slot.
  /** Ids and texts: held as a snapshot's runs when loaded from one (string-column.ts), else string by string. */
  private ids = new StringColumn();
  /** A title the record's text begins with (a qa record's question) is kept as its length: no second copy (`titleAt`). */
  private titles: (string | number | null)[] = [];
  private texts = new StringColumn();
  private sources: string[] = [];
  private kinds: (string | undefined)[] = [];
  private titleLen = new Int32Array(16);
  private textLen = new Int32Array(16);
  private live = new Uint8Array(16);
  private slots = 0;
  private dead = 0;
  /**
   * Slot by record id: a table over `ids` (word-ids.ts), 2–4 bytes a slot instead of a ~48-byte
   * `Map` entry (issue 14, memory per knowledge base). Emptied and filled again when slots move.
   */
  private readonly slotOf = new WordIds(new WordsReadBy((slot) => this.ids.at(slot)));
  /** One copy of each source name and kind, however many records share it. */
  private readonly shared = new Map<string, string>();
  private totalTitleLen = 0;
  private totalTextLen = 0;
  private textChars = 0;
  /** Ids of the records the language was detected from (see `languageHolds`). */
  private languageSample: string[] = [];

  /** Surface words (packed, their terms by id, with their sorted order for the prefix look-ups). */
  private readonly surfaces = new SurfaceWords(this.termIds, this.terms);
  /** Term ids by reversed spelling (see `termsWithSuffix`). */
  private reversedTerms: IdList | null = null;
  private deletionIndex: DeletionIndex | null = null;
  /** The spelling table being made (see `surfacesWithinOneEdit`): its words, and when it is there or dropped. */
  private spelling: { readonly words: string[]; done: Promise<void> } | null = null;
  /** Whether the surface words are in a fresh build's order since they last changed (see `surfacesWithinOneEdit`). */
  private surfacesOrdered = false;
  /** Expanded questions, valid for `expansionsVersion` of this index; made by the first question, dropped with the other query caches. */
  private expansions: ExpansionMemo | null = null;
  private expansionsVersion = -1;
  private expandedAt = 0;
  /** Changes whenever records are added or removed. */
  private version = 0;

  constructor(options: IndexOptions = {}) {
    this.k1 = options.k1 ?? DEFAULT_BM25.k1;
    this.b = options.b ?? DEFAULT_BM25.b;
    this.titleWeight = options.titleWeight ?? DEFAULT_TITLE_WEIGHT;
    this.scanAtMost = options.scanAtMost ?? SCAN_AT_MOST;
    this.language = options.language ?? 'en';
    this.languagePinned = options.language !== undefined;
  }

  /** An index of `records`, in their language unless `options.language` says otherwise. */
  static build(records: readonly IndexableRecord[], options: IndexOptions = {}): KnowledgeIndex {
    const language = options.language ?? detectCorpusLanguage(records.map((r) => r.text));
    const index = new KnowledgeIndex({ ...options, language });
    index.languagePinned = options.language !== undefined;
    index.add(records);
    index.compact();
    index.trim();
    index.languageSample = index.sampleIds();
    index.settle(true);
    return index;
  }

  /**
   * The index `toCompact()` gave (built elsewhere, e.g. on a worker thread) with its records,
   * which must be the ones it was built from, in the same order.
   */
  static fromCompact(compact: CompactIndex, records: readonly IndexableRecord[]): KnowledgeIndex {
    const steps = KnowledgeIndex.fromCompactInSteps(compact, records, Infinity);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * `fromCompact` in steps of about `perStep` terms, records or surface words, so that a caller
   * can let other work run between them (index-snapshot.ts: a large index loaded on the HTTP thread).
   */
  static *fromCompactInSteps(compact: CompactIndexSource, records: RecordsBySlot, perStep: number): Generator<void, KnowledgeIndex> {
    if (records.length !== compact.titleLen.length) throw new Error('the records are not the ones the index was built from');
    const index = new KnowledgeIndex({ ...compact.options, language: compact.language });
    index.languagePinned = compact.languagePinned;
    // Sized once: growing would rehash every term in one step.
    index.termIds.reserve(compact.terms.length);
    index.slotOf.reserve(records.length);
    for (let t = 0; t < compact.terms.length; t++) {
      const term = compact.terms.at(t) as string;
      index.terms.push(term);
      index.termIds.set(term, t);
      if (t % perStep === perStep - 1) yield;
    }
    index.terms.seal();
    index.df = compact.df;
    index.baseTerms = compact.terms.length;
    index.baseStart = compact.start;
    index.baseSlot = compact.slot;
    index.baseTitleTf = compact.titleTf;
    index.baseTextTf = compact.textTf;
    index.titleLen = compact.titleLen;
    index.textLen = compact.textLen;
    index.live = new Uint8Array(records.length).fill(1);
    // The records' lists made at their final length (filled: a long array given a length is made a
    // dictionary): no growth slack left in an idle index, and no copies made while they grow.
    index.titles = new Array<string | number | null>(records.length).fill(null);
    index.sources = new Array<string>(records.length).fill('');
    index.kinds = new Array<string | undefined>(records.length).fill(undefined);
    // Ids and texts the caller holds as columns are taken as they are (no string per record kept).
    const columns = records.columns;
    if (columns) {
      if (columns.ids.length !== records.length || columns.texts.length !== records.length) throw new Error('the records are not the ones the index was built from');
      index.ids = columns.ids;
      index.texts = columns.texts;
    }
    for (let s = 0; s < records.length; s++) {
      index.keep(records.at(s) as IndexableRecord, columns !== undefined);
      index.totalTitleLen += index.titleLen[s] as number;
      index.totalTextLen += index.textLen[s] as number;
      if (s % perStep === perStep - 1) yield;
    }
    yield* index.surfaces.restoreInSteps(compact.surfaces, perStep);
    index.languageSample = index.sampleIds();
    index.settle(false);
    index.version++;
    return index;
  }

  /**
   * The compact form of this index, without the records (the receiver has them): typed arrays
   * that `postMessage` can transfer, and the term and surface lists. Compacts first.
   */
  toCompact(): CompactIndex {
    if (this.recentCount > 0 || this.dead > 0 || this.zeroTerms > 0) this.compact(true);
    const n = this.slots;
    return {
      language: this.language,
      languagePinned: this.languagePinned,
      options: { k1: this.k1, b: this.b, titleWeight: this.titleWeight },
      terms: this.terms.toArray(),
      df: Int32Array.from(this.df.subarray(0, this.terms.length)),
      // Each its own buffer, which the receiver may be given (compact-index.ts, `transferables`): copied when a view of a shared one.
      start: sharesBuffer(this.baseStart) ? this.baseStart.slice() : this.baseStart,
      slot: sharesBuffer(this.baseSlot) ? this.baseSlot.slice() : this.baseSlot,
      titleTf: sharesBuffer(this.baseTitleTf) ? this.baseTitleTf.slice() : this.baseTitleTf,
      textTf: sharesBuffer(this.baseTextTf) ? this.baseTextTf.slice() : this.baseTextTf,
      titleLen: this.titleLen.slice(0, n),
      textLen: this.textLen.slice(0, n),
      surfaces: this.surfaces.snapshot(),
    };
  }

  get size(): number {
    return this.slotOf.size;
  }

  has(recordId: string): boolean {
    return this.slotOf.get(recordId) !== undefined;
  }

  get(recordId: string): IndexableRecord | undefined {
    const slot = this.slotOf.get(recordId);
    return slot === undefined ? undefined : this.recordAt(slot);
  }

  /** Adds records; a record whose id is already indexed is replaced (and moves to the end of the order). */
  add(records: readonly IndexableRecord[]): void {
    for (const record of records) {
      const old = this.slotOf.get(record.recordId);
      if (old !== undefined) this.removeSlot(old);
      const title = record.title ? analyzeWords(record.title, this.language, 'index') : null;
      const text = analyzeWords(record.text, this.language, 'index');
      // A way of reaching the business (a phone number, an email address, opening hours, a postal
      // address) or an age limit is also a term of the text (answer-types.ts), one that does not
      // lengthen it: every other question ranks the records as without it.
      const kinds = indexedAnswerTermsIn(record.text);
      const slot = this.keep(record);
      const titleTerms = title?.terms ?? [];
      this.titleLen[slot] = titleTerms.length;
      this.textLen[slot] = text.terms.length;
      this.live[slot] = 1;
      this.totalTitleLen += titleTerms.length;
      this.totalTextLen += text.terms.length;
      for (const term of titleTerms) this.count(slot, term, 1);
      for (const term of text.terms) this.count(slot, term, 2);
      for (const term of kinds) this.count(slot, term, 2);
      if (this.surfaces.add(slot, title, text)) this.surfacesChanged();
    }
    this.version++;
    this.maybeCompact();
  }

  /** Removes records by id; unknown ids are ignored. Returns how many were removed. */
  remove(recordIds: Iterable<string>): number {
    let removed = 0;
    for (const id of recordIds) {
      const slot = this.slotOf.get(id);
      if (slot === undefined) continue;
      this.removeSlot(slot);
      removed++;
    }
    if (removed > 0) {
      this.version++;
      this.maybeCompact();
    }
    return removed;
  }

  /**
   * Whether the language detected from the records as they are now is still this index's (always
   * true when it was given). The language is detected from the first records, so this is only
   * worked out again when those changed.
   */
  languageHolds(): boolean {
    if (this.languagePinned) return true;
    const sample = this.sampleIds();
    if (sample.length === this.languageSample.length && sample.every((id, i) => id === this.languageSample[i])) return true;
    const live: string[] = [];
    for (let s = 0; s < this.slots && live.length < sample.length; s++) if (this.live[s]) live.push(this.texts.at(s));
    if (detectCorpusLanguage(live) !== this.language) return false;
    this.languageSample = sample;
    return true;
  }

  /** Number of records containing an analysed term. */
  docFreq(term: string): number {
    const t = this.termIds.get(term);
    return t === undefined ? 0 : (this.df[t] as number);
  }

  /** Inverse document frequency of an analysed term in this index (highest for unseen terms). */
  idf(term: string): number {
    return idf(this.size, this.docFreq(term));
  }

  /**
   * Records matching the query, best first (ties in insertion order), at most `limit`.
   * Stop-words are ignored unless the query has nothing else, so "The Who" still searches.
   */
  search(query: string, limit = 10, synonyms?: SynonymGroups): Hit[] {
    const max = Number.isFinite(limit) ? Math.floor(limit) : 0;
    if (max <= 0 || this.size === 0) return [];
    return this.searchWeighted(searchTermsOf(this.expand(query, synonyms)), max);
  }

  /**
   * The question's words matched to this index's terms (exact, variant, compound, corrected
   * spelling, the owner's `synonyms`), with their general-language informativeness. Memoised per
   * question until the index or the synonyms change: the search and the answerer both ask.
   */
  expand(query: string, synonyms?: SynonymGroups): ExpandedQuery {
    this.expandedAt = Date.now();
    if (this.expansions === null) this.expansions = new ExpansionMemo(this);
    if (this.expansionsVersion !== this.version) {
      this.expansions.clear();
      this.expansionsVersion = this.version;
    }
    return this.expansions.expand(query, compiledSynonyms(synonyms, this.language));
  }

  termOfSurface(surface: string): string | undefined {
    return this.surfaces.termOf(surface);
  }

  surfacesWithPrefix(prefix: string, limit: number): string[] {
    // Kept sorted (2 bytes a word, surface-words.ts): scanning a small vocabulary instead cost ~5 µs a new question.
    return this.surfaces.withPrefix(prefix, limit);
  }

  surfacesWithSuffix(suffix: string, limit: number): string[] {
    return this.surfaces.withSuffix(suffix, limit);
  }

  termsWithSuffix(suffix: string, limit: number): string[] {
    if (this.reversedTerms === null) {
      // The ids of the terms present, ordered by their reversed spelling: 2 bytes a term (4 past
      // 65,536 terms; id-lists.ts) rather than a reversed copy of each (~35 bytes; issue 14, memory per knowledge base).
      const present: { t: number; reversed: string }[] = [];
      for (let t = 0; t < this.terms.length; t++) if ((this.df[t] as number) > 0) present.push({ t, reversed: reverseWord(this.terms.at(t)) });
      present.sort((x, y) => (x.reversed < y.reversed ? -1 : x.reversed > y.reversed ? 1 : 0));
      this.reversedTerms = idList(present.map((x) => x.t));
    }
    const ids = this.reversedTerms;
    return wordsEndingWith(ids.length, (i) => this.terms.at(idAt(ids, i)), suffix, limit, (i) => (this.df[idAt(ids, i)] as number) > 0);
  }

  surfacesWithinOneEdit(word: string): string[] {
    if (!this.surfacesOrdered) {
      // The words as a fresh build lists them (records re-read only when a removal left a word's
      // first record gone); the neighbours come back sorted either way.
      this.surfaces.restoreOrder((slot) => this.analyseSlot(slot), this.slots, (slot) => this.live[slot] === 1);
      this.surfacesOrdered = true;
    }
    if (this.surfaces.size <= this.scanAtMost) {
      // A small vocabulary is scanned each time, as DeletionIndex scans one (the same words, sorted),
      // rather than holding a copy of its word list sorted by length for as long as the index is
      // held; in the prefix look-ups' sorted order, read in place.
      return this.surfaces.withinOneEdit(word);
    }
    // A large vocabulary's spelling table is made in slices (at once it held the HTTP thread
    // 0.5–1 s at ~150,000 words: issue 14, head of line); until it is there, a scan of the same
    // words gives the same answer.
    if (this.deletionIndex === null) return neighboursByScan((this.spelling ?? this.buildSpellingTable()).words, word, 4);
    return this.deletionIndex.neighbours(word);
  }

  /** Resolves once the spelling table being made, if any, is there or dropped (tests). */
  spellingSettled(): Promise<void> {
    return this.spelling?.done ?? Promise.resolve();
  }

  /** Starts making the spelling table of the surface words in slices; a change of them or `releaseCaches` drops it. */
  private buildSpellingTable(): { readonly words: string[]; done: Promise<void> } {
    const words: string[] = [];
    for (const surface of this.surfaces.words()) if (surface.length >= 4) words.push(surface);
    const building = { words, done: Promise.resolve() };
    this.spelling = building;
    const wanted = () => this.spelling === building;
    building.done = DeletionIndex.inSlices(words, 4, SPELLING_STEP, wanted).then((table) => {
      if (table === undefined || !wanted()) return;
      this.deletionIndex = table;
      this.spelling = null;
    });
    return building;
  }

  /** When a question was last expanded here (ms since the epoch; 0: never): the index's last use. */
  get lastUsedAt(): number {
    return this.expandedAt;
  }

  /**
   * Drops what queries made and would make again on demand (the sorted word lists, the spelling
   * table, the question memo): what an index idle for long need not hold (IndexRegistry drops
   * them from indexes idle for its `idleMs`). Ranking is unchanged.
   */
  releaseCaches(): void {
    this.surfaces.releaseSorted();
    this.reversedTerms = null;
    this.deletionIndex = null;
    this.spelling = null;
    this.expansions = null;
  }

  /** Ranks by weighted terms: each term's BM25F contribution is multiplied by its weight. */
  searchWeighted(terms: readonly WeightedTerm[], limit: number): Hit[] {
    const n = this.size;
    if (n === 0 || limit <= 0) return [];
    const avgTitle = this.totalTitleLen / n;
    const avgText = this.totalTextLen / n;
    const { k1, b, titleWeight, live, titleLen, textLen } = this;
    const view: PostingsView = { n, slots: this.slots, avgTitle, avgText, k1, b, titleWeight, live, titleLen, textLen, df: this.df, baseTerms: this.baseTerms, baseStart: this.baseStart, baseSlot: this.baseSlot, baseTitleTf: this.baseTitleTf, baseTextTf: this.baseTextTf, recent: this.recent, termId: (term) => this.termIds.get(term) };
    // Most postings of a large index's commonest terms cannot change the top k: skipped when that is shown (max-score.ts).
    const ranked = searchMaxScore(view, terms, limit) ?? searchAllPostings(view, terms, limit);
    return ranked.map(({ slot, score }) => ({ recordId: this.ids.at(slot), score }));
  }

  /**
   * Approximate memory held by this index and its records, in bytes: JavaScript heap and typed
   * arrays' contents (which live outside the heap). The registry's budget (INDEX_CACHE_MB) counts
   * it. Per-item costs were measured with `bench/index-memory.ts` (docs/indexing.md, "Memory per
   * knowledge base"): a string is a 16-byte header and its characters in 8-byte steps, a list slot
   * 8 bytes, a `Map` entry 30–60 bytes, a typed array ~100 bytes besides its contents.
   */
  approximateBytes(): number {
    const typed =
      this.df.byteLength +
      this.baseStart.byteLength +
      this.baseSlot.byteLength +
      this.baseTitleTf.byteLength +
      this.baseTextTf.byteLength +
      this.titleLen.byteLength +
      this.textLen.byteLength +
      this.live.byteLength +
      this.termIds.byteLength +
      this.slotOf.byteLength +
      8 * 100;
    // Recent postings: small-integer lists (8 bytes an element, with growth slack) in a Map.
    const recent = this.recentCount * 3 * 12 + this.recent.size * 100;
    // The terms, packed (packed-words.ts).
    const terms = this.terms.approximateBytes();
    // A record: its id (~48), the slots of its five fields (40), the headers of its title and
    // text strings (32) and their characters (one byte each when Latin-1).
    const records = this.slots * 120 + this.textChars;
    const caches =
      (this.expansions ? this.expansions.approximateBytes() : 0) +
      (this.reversedTerms === null ? 0 : idListBytes(this.reversedTerms)) +
      (this.deletionIndex ? this.surfaces.size * 8 * 48 : 0);
    return 1500 + typed + recent + terms + records + caches + this.surfaces.approximateBytes();
  }

  /**
   * Folds the recent postings into the typed arrays, drops removed records' postings and slots,
   * and (when many terms are gone) renumbers the terms. `always`: even when little would change.
   */
  compact(always = false): void {
    if (!always && this.recentCount === 0 && this.dead === 0) return;
    const renumberSlots = this.dead > 0;
    // The postings are read with the slots' liveness as it was before they were renumbered.
    const live = this.live;
    const slotMap = renumberSlots ? this.renumberSlots() : null;
    const termMap = this.zeroTerms > 0 && (always || this.zeroTerms * 4 > this.terms.length) ? this.renumberTerms() : null;
    const termCount = this.terms.length;
    let total = 0;
    for (let t = 0; t < termCount; t++) total += this.df[t] as number;
    const start = offsetArray(termCount + 1, total);
    for (let t = 0; t < termCount; t++) start[t + 1] = (start[t] as number) + (this.df[t] as number);
    // The narrowest arrays that hold every slot (renumbered: below the live count) and frequency.
    let maxTf = 0;
    for (let t = 0; t < this.baseTerms; t++) {
      for (let i = this.baseStart[t] as number; i < (this.baseStart[t + 1] as number); i++) {
        if (live[this.baseSlot[i] as number]) maxTf = Math.max(maxTf, this.baseTitleTf[i] as number, this.baseTextTf[i] as number);
      }
    }
    for (const list of this.recent.values()) for (let i = 0; i < list.length; i += 3) if (live[list[i] as number]) maxTf = Math.max(maxTf, list[i + 1] as number, list[i + 2] as number);
    const slot = slotArray(total, this.slots);
    const titleTf = tfArray(total, maxTf);
    const textTf = tfArray(total, maxTf);
    const fill = Int32Array.from(start.subarray(0, termCount));
    const put = (oldTerm: number, oldSlot: number, title: number, text: number): void => {
      const t = termMap ? (termMap[oldTerm] as number) : oldTerm;
      const s = slotMap ? (slotMap[oldSlot] as number) : oldSlot;
      if (s < 0 || t < 0) return;
      const at = fill[t] as number;
      fill[t] = at + 1;
      slot[at] = s;
      titleTf[at] = title;
      textTf[at] = text;
    };
    for (let t = 0; t < this.baseTerms; t++) {
      for (let i = this.baseStart[t] as number; i < (this.baseStart[t + 1] as number); i++) {
        const d = this.baseSlot[i] as number;
        if (live[d]) put(t, d, this.baseTitleTf[i] as number, this.baseTextTf[i] as number);
      }
    }
    // Recent postings have higher slots than every compacted one: each range stays in slot order.
    for (const [t, list] of [...this.recent].sort((x, y) => x[0] - y[0])) {
      for (let i = 0; i < list.length; i += 3) if (live[list[i] as number]) put(t, list[i] as number, list[i + 1] as number, list[i + 2] as number);
    }
    this.baseTerms = termCount;
    this.baseStart = start;
    this.baseSlot = slot;
    this.baseTitleTf = titleTf;
    this.baseTextTf = textTf;
    this.recent = NO_RECENT;
    this.recentCount = 0;
  }

  /** Frees the growth slack of the per-term and per-record arrays and tables (after a build: the index may sit idle for long). */
  private trim(): void {
    const n = this.slots;
    if (this.titleLen.length > n) this.titleLen = this.titleLen.slice(0, n);
    if (this.textLen.length > n) this.textLen = this.textLen.slice(0, n);
    if (this.live.length > n) this.live = this.live.slice(0, n);
    if (this.df.length > this.terms.length) this.df = this.df.slice(0, this.terms.length);
    this.terms.seal();
    this.termIds.trim();
    this.slotOf.trim();
    this.surfaces.trim();
  }

  /**
   * What an index that may now sit idle for long holds, made small (issue 14, memory per idle
   * knowledge base; docs/indexing.md, "Session 12"): the records' lists without growth slack,
   * and a small index's numeric columns (its own, its word tables', its packed words' offsets,
   * its surface words' counts) as views of one buffer (packed-columns.ts), the frequencies as
   * narrow as its slots allow. Values and order are unchanged: nothing a search reads differs.
   */
  private settle(trimLists: boolean): void {
    if (trimLists) {
      this.ids.trimSlack(this.slots);
      this.titles = this.titles.slice(0, this.slots);
      this.texts.trimSlack(this.slots);
      this.sources = this.sources.slice(0, this.slots);
      this.kinds = this.kinds.slice(0, this.slots);
    }
    const packer = new ColumnPacker();
    const n = this.slots;
    packer.add(this.baseStart, (view) => (this.baseStart = view));
    packer.add(this.baseSlot, (view) => (this.baseSlot = view));
    packer.add(this.baseTitleTf, (view) => (this.baseTitleTf = view));
    packer.add(this.baseTextTf, (view) => (this.baseTextTf = view));
    packer.add(this.titleLen.subarray(0, n), (view) => (this.titleLen = view));
    packer.add(this.textLen.subarray(0, n), (view) => (this.textLen = view));
    packer.add(this.live.subarray(0, n), (view) => (this.live = view));
    this.termIds.packColumns(packer);
    this.slotOf.packColumns(packer);
    this.terms.packColumns(packer);
    this.surfaces.packColumns(packer);
    const terms = this.terms.length;
    if (packer.byteLength + terms * countArray(0, this.slots).BYTES_PER_ELEMENT > PACK_AT_MOST_BYTES) return;
    const df = countArray(terms, this.slots);
    df.set(this.df.subarray(0, terms));
    packer.add(df, (view) => (this.df = view));
    packer.pack();
  }

  private maybeCompact(): void {
    const basePostings = this.baseSlot.length;
    if (this.recentCount > Math.max(4096, basePostings / 8) || this.dead > Math.max(64, this.slots / 4)) this.compact();
  }

  /**
   * Keeps a record in the next slot (its strings, source name and kind shared); returns the slot.
   * `inColumns`: its id and text are already the columns' (a snapshot's, `fromCompactInSteps`).
   */
  private keep(record: IndexableRecord, inColumns = false): number {
    const slot = this.slots++;
    if (!inColumns) {
      this.ids.set(slot, record.recordId);
      this.texts.set(slot, record.text);
    }
    const { title } = record;
    this.titles[slot] = title && record.text.startsWith(title) ? title.length : title;
    this.sources[slot] = this.share(record.sourceName);
    this.kinds[slot] = record.kind === undefined ? undefined : this.share(record.kind);
    this.slotOf.set(record.recordId, slot);
    this.textChars += record.text.length + (typeof this.titles[slot] === 'string' ? (title?.length ?? 0) : 0);
    const need = slot + 1;
    // A term is in at most every slot: the frequencies widen before a count could pass what they hold.
    if (!countsHold(this.df, this.slots)) {
      const df = countArray(this.df.length, this.slots);
      df.set(this.df);
      this.df = df;
    }
    this.titleLen = grown(this.titleLen, need, (n) => new Int32Array(n));
    this.textLen = grown(this.textLen, need, (n) => new Int32Array(n));
    this.live = grown(this.live, need, (n) => new Uint8Array(n));
    return slot;
  }

  private share(value: string): string {
    const known = this.shared.get(value);
    if (known !== undefined) return known;
    this.shared.set(value, value);
    return value;
  }

  /** The title of the record at `slot`: kept, or the start of its text. */
  private titleAt(slot: number): string | null {
    const title = this.titles[slot];
    return typeof title === 'number' ? this.texts.at(slot).slice(0, title) : (title ?? null);
  }

  private recordAt(slot: number): IndexableRecord {
    const record: IndexableRecord = {
      recordId: this.ids.at(slot),
      title: this.titleAt(slot),
      text: this.texts.at(slot),
      sourceName: this.sources[slot] as string,
    };
    const kind = this.kinds[slot];
    if (kind !== undefined) record.kind = kind;
    return record;
  }

  /** Counts one occurrence of `term` in the record at `slot` (field 1: title, 2: text). */
  private count(slot: number, term: string, field: 1 | 2): void {
    let t = this.termIds.get(term);
    const fresh = t === undefined;
    if (t === undefined) {
      t = this.terms.length;
      // A copy: a slice of a record's normalised text would keep all of it alive.
      const own = ` ${term}`.slice(1);
      this.terms.push(own);
      this.termIds.set(own, t);
      this.df = grown(this.df, t + 1, (n) => countArray(n, this.slots));
      this.reversedTerms = null;
    }
    let list = this.recent.get(t);
    if (list === undefined) {
      list = [];
      if (this.recent === NO_RECENT) this.recent = new Map();
      this.recent.set(t, list);
    }
    // Records are added one at a time: the one being added owns the last posting of a list.
    const last = list.length - 3;
    if (last < 0 || list[last] !== slot) {
      list.push(slot, 0, 0);
      this.recentCount++;
      if (this.df[t] === 0 && !fresh) this.zeroTerms--;
      this.df[t] = (this.df[t] as number) + 1;
    }
    const at = list.length - 3 + field;
    list[at] = (list[at] as number) + 1;
  }

  private analyseSlot(slot: number): { title: AnalysedWords | null; text: AnalysedWords } {
    const title = this.titleAt(slot);
    return { title: title ? analyzeWords(title, this.language, 'index') : null, text: analyzeWords(this.texts.at(slot), this.language, 'index') };
  }

  /** Takes a record out: its terms' frequencies, lengths and surface words; its slot stays, dead, until compaction. */
  private removeSlot(slot: number): void {
    const { title, text } = this.analyseSlot(slot);
    const seen = new Set<number>();
    for (const words of [title?.terms ?? [], text.terms, indexedAnswerTermsIn(this.texts.at(slot))]) {
      for (const term of words) {
        const t = this.termIds.get(term);
        if (t === undefined || seen.has(t)) continue;
        seen.add(t);
        this.df[t] = (this.df[t] as number) - 1;
        if (this.df[t] === 0) this.zeroTerms++;
      }
    }
    if (seen.size > 0) this.reversedTerms = null;
    if (this.surfaces.remove(slot, title, text)) this.surfacesChanged();
    this.totalTitleLen -= this.titleLen[slot] as number;
    this.totalTextLen -= this.textLen[slot] as number;
    const ownTitle = this.titles[slot];
    this.textChars -= this.texts.lengthAt(slot) + (typeof ownTitle === 'string' ? ownTitle.length : 0);
    this.slotOf.delete(this.ids.at(slot));
    this.live[slot] = 0;
    this.ids.set(slot, '');
    this.titles[slot] = null;
    this.texts.set(slot, '');
    this.dead++;
  }

  private surfacesChanged(): void {
    this.deletionIndex = null;
    this.spelling = null;
    this.surfacesOrdered = false;
  }

  /** Moves the live records to the first slots, in order; returns old slot → new slot (-1: removed). */
  private renumberSlots(): Int32Array {
    const map = new Int32Array(this.slots).fill(-1);
    const oldLive = this.live;
    // The table reads `ids`, which move below: filled again as they do.
    this.slotOf.clear();
    this.slotOf.reserve(this.slots - this.dead);
    let next = 0;
    for (let s = 0; s < this.slots; s++) {
      if (!oldLive[s]) continue;
      map[s] = next;
      this.ids.move(s, next);
      this.titles[next] = this.titles[s] ?? null;
      this.texts.move(s, next);
      this.sources[next] = this.sources[s] as string;
      this.kinds[next] = this.kinds[s];
      this.titleLen[next] = this.titleLen[s] as number;
      this.textLen[next] = this.textLen[s] as number;
      this.slotOf.set(this.ids.at(next), next);
      next++;
    }
    this.ids.truncate(next);
    this.texts.truncate(next);
    for (const list of [this.titles, this.sources, this.kinds]) list.length = next;
    this.live = new Uint8Array(Math.max(16, next)).fill(1, 0, next);
    this.slots = next;
    this.dead = 0;
    this.surfaces.renumber(map);
    return map;
  }

  /** Drops the terms no record has any more; returns old term id → new id (-1: dropped). */
  private renumberTerms(): Int32Array {
    const map = new Int32Array(this.terms.length).fill(-1);
    const terms: string[] = [];
    const df = countArray(Math.max(16, this.terms.length - this.zeroTerms), this.slots);
    for (let t = 0; t < this.terms.length; t++) {
      if (this.df[t] === 0) continue;
      map[t] = terms.length;
      df[terms.length] = this.df[t] as number;
      terms.push(this.terms.at(t));
    }
    // The table reads the list (the same object: the word tables hold it): the new words first, then the ids.
    this.terms.clear();
    for (const term of terms) this.terms.push(term);
    this.terms.seal();
    this.termIds.clear();
    for (let t = 0; t < terms.length; t++) this.termIds.set(terms[t] as string, t);
    this.surfaces.renumberTerms(map);
    this.df = df;
    this.zeroTerms = 0;
    this.reversedTerms = null;
    return map;
  }

  /** Ids of the first records, as many as the language detection samples (see detectCorpusLanguage). */
  private sampleIds(): string[] {
    const ids: string[] = [];
    let chars = 0;
    for (let s = 0; s < this.slots && chars < 600; s++) {
      if (!this.live[s]) continue;
      ids.push(this.ids.at(s));
      chars += Math.min(200, this.texts.lengthAt(s)) + 1;
    }
    // Without the growth slack of `push` (kept for as long as the index).
    return ids.slice();
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
