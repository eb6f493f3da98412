/**
 * Cuts retrieved records into the pieces an extractive answer is made of ("units"), each with
 * the context that qualifies it: a record's title (question, product name, heading) is not
 * repeated in every sentence, yet a sentence under it is about it.
 */
import { LRUCache } from 'lru-cache';
import { answerTypesIn, answerTypeTerm, askedAnswerTypes, isAnswerTypeTerm } from '../language/answer-types.js';
import { withoutExceptedPlaces } from '../language/excepted-places.js';
import { holdsPhrase, isPhraseTerm, mayWritePhrase } from '../language/phrasal-verbs.js';
import { analyzeWords, tokenize } from '../retrieval/tokenize.js';
import { removeDanglingCitations } from './citations.js';
import { collapseSpace, type Sentence, splitSentences, withoutListNumber } from './sentences.js';
import type { RetrievedRecord } from './types.js';

/**
 * A piece of one record. Units are cached per record and shared between queries (see
 * `recordUnits`): treat them as read-only.
 */
export interface Unit {
  /** Collapsed text, as it goes into the answer. */
  readonly text: string;
  /** Offset in the record's text (footnote markers removed): orders units of one record. */
  readonly start: number;
  /**
   * Term frequencies (stop-words included; only query terms are ever looked up). The kinds of
   * answer the unit holds are not among them: look terms up with `unitTermCount`.
   */
  readonly tf: ReadonlyMap<string, number>;
  /** Number of terms, for length normalisation. */
  readonly len: number;
  /** Distinct non-stop-word terms, for redundancy (MMR). */
  readonly content: ReadonlySet<string>;
  /** Terms of the record's title/question, which qualify every unit of the record. */
  readonly context: ReadonlySet<string>;
}

/**
 * A unit as analysed here, with the pseudo-terms of the kinds of answer it holds
 * (`answerTypeTerm`: "30 days" a duration), found when a question first asks for one (undefined
 * until then): most questions ask for none, and the patterns were a quarter of a record's analysis,
 * which a round robin over thousands of knowledge bases repeats for most records it answers from
 * (issue 14, docs/indexing.md "Session 12").
 */
interface AnalysedUnit extends Unit {
  answerTerms: readonly string[] | undefined;
  /** The text without its list items' numbers: what its words and kinds of answer are read from. */
  plain: string;
  /** The record's title or question as written (`context` as text) when it has a particle, for the phrasal verbs it writes (`contextHas`); else null. */
  contextText: string | null;
}


/** The text a unit's words and kinds of answer are read from: its text without its list items' numbers. */
export function unitPlainText(u: Unit): string {
  return (u as AnalysedUnit).plain;
}

function answerTermsOf(u: Unit): readonly string[] {
  const unit = u as AnalysedUnit;
  // The list number is not part of the answer ("2. Wait 30 days" holds a duration, "2." no quantity).
  unit.answerTerms ??= answerTypesIn(unit.plain).map(answerTypeTerm);
  return unit.answerTerms;
}

/** How often `term` occurs in `u`: its count, or 1 for the kind of answer the unit holds (`answerTypeTerm`). */
export function unitTermCount(u: Unit, term: string): number {
  if (isPhraseTerm(term)) return holdsPhrase((u as AnalysedUnit).plain, term) ? 1 : 0;
  if (!isAnswerTypeTerm(term)) return u.tf.get(term) ?? 0;
  return answerTermsOf(u).includes(term) ? 1 : 0;
}

/**
 * Whether the record's title or question, which qualifies `u`, writes `term`: a word's term, or a
 * phrasal verb with its particle ("What happens if the battery runs out during my ride?" writes
 * "run out", which no set of terms holds: `unitTermCount`).
 */
export function contextHas(u: Unit, term: string): boolean {
  if (!isPhraseTerm(term)) return u.context.has(term);
  const text = (u as AnalysedUnit).contextText;
  return text !== null && holdsPhrase(text, term);
}

/** Whether `term` is in `entry`'s `terms` (a kind of answer: held by one of its units; never for a single unit). */
export function recordHasTerm(entry: RecordUnits, term: string): boolean {
  if (!isAnswerTypeTerm(term) && !isPhraseTerm(term)) return entry.terms.has(term);
  return entry.units.length > 1 && entry.units.some((u) => unitTermCount(u, term) > 0);
}

/** A record's units, analysed once and shared by every query that retrieves the record. */
export interface RecordUnits {
  readonly units: readonly Unit[];
  /**
   * Every term of the record's units and their context, for the partial credit of a term found
   * elsewhere in the record. Left empty when the record is a single unit: there is no elsewhere.
   */
  readonly terms: ReadonlySet<string>;
  /** Sum of the units' `len` (an integer), for the average unit length. */
  readonly totalLen: number;
  /** The kinds of answer the record's own question asks for, once looked up (`askedByRecord`). */
  asks?: readonly string[];
}

interface RecordLayout {
  /** The question or heading, when the record has one. */
  context: string | null;
  /** Where the body (answer, section text) starts in the record's text. */
  bodyStart: number;
}

const NO_CONTEXT: ReadonlySet<string> = new Set();
const NO_TERMS: ReadonlySet<string> = new Set();

/** Finds the question/heading of a record and where its body starts. */
function layout(r: RetrievedRecord, text: string): RecordLayout {
  const lead = text.length - text.trimStart().length;
  const title = r.title?.trim() ?? '';
  if (title.length > 0 && text.startsWith(title, lead)) return { context: title, bodyStart: lead + title.length };
  if (title.length > 0) return { context: title, bodyStart: 0 };
  // A Q&A without a title: its first line is the question when it reads like one.
  if (r.kind === 'qa') {
    const nl = text.indexOf('\n', lead);
    const first = text.slice(lead, nl < 0 ? undefined : nl).trim();
    if (nl > 0 && first.endsWith('?')) return { context: first, bodyStart: nl + 1 };
  }
  return { context: null, bodyStart: 0 };
}

function makeUnit(text: string, start: number, context: ReadonlySet<string>, contextText: string | null, language: string, plain = withoutListNumber(text)): Unit {
  const tf = new Map<string, number>();
  const content = new Set<string>();
  // A list item's number is not a word of it: "SOC 2" is not answered by step 2 of a list.
  // Parallel lists rather than an object per word (`analyze`): every record a query answers from may be analysed.
  // Places named only as exceptions ("Außer nach … in die Schweiz liefern wir …") are not what the unit is about.
  const { terms, stops } = analyzeWords(withoutExceptedPlaces(plain, language), language, 'index');
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i] as string;
    tf.set(term, (tf.get(term) ?? 0) + 1);
    if (!stops[i]) content.add(term);
  }
  // The kinds of answer the unit holds, for questions that ask for one: on first use (`unitTermCount`).
  const unit: AnalysedUnit = { text, start, tf, len: terms.length, content, context, answerTerms: undefined, plain, contextText };
  return unit;
}

const NO_ASKS: readonly string[] = Object.freeze([]);

/**
 * The kinds of answer (pseudo-terms, `answerTypeTerm`) that a record's own question asks for: "How
 * much is UK delivery and how long does it take?" an amount and a duration, which its answer gives.
 * Looked up the first time a question asking for a kind of answer meets the record, and kept with
 * its units (most questions ask for none, and a record's analysis is on the path of every new one).
 */
export function askedByRecord(entry: RecordUnits, record: RetrievedRecord, language: string): readonly string[] {
  if (entry.asks === undefined) {
    const title = record.title?.trimEnd();
    const kinds = title !== undefined && title.endsWith('?') ? askedAnswerTypes(title, language) : [];
    entry.asks = kinds.length > 0 ? kinds.map(answerTypeTerm) : NO_ASKS;
  }
  return entry.asks;
}

interface CachedUnits extends RecordUnits {
  text: string;
  title: string | null;
  kind: RetrievedRecord['kind'];
  maxChars: number;
  language: string;
  /** When a query last used the entry (see `RecordUnitsCacheOptions.idleMs`). */
  usedAt: number;
}

export interface RecordUnitsCacheOptions {
  /** Approximate heap the cached units may hold (default 8 MiB: some 4,000 short FAQ records). */
  maxBytes?: number;
  /** Entries no query used for this long are dropped (default 5 minutes). */
  idleMs?: number;
  /**
   * Record ids remembered as analysed once (default 8,192; 0 keeps every analysis at once): an
   * analysis is kept only when its record comes back while its id is remembered.
   */
  seenAtMost?: number;
  now?: () => number;
}

/** Heap of a Map (`perSlot` ~28 bytes) or Set (~20) of `size` entries: V8 doubles its table from 4 slots. */
function hashBytes(size: number, perSlot: number): number {
  let slots = 4;
  while (slots < size) slots *= 2;
  return 80 + slots * perSlot;
}

/** Heap of a short list of shared strings (a few kinds of answer), which an entry gains after it is cached. */
const KINDS_LIST_BYTES = 32;

/**
 * Approximate heap of one cache entry: its objects, each unit's collapsed text, term counts and
 * sets, and the lists of kinds of answer its units and its record's question are found to hold
 * when a question first asks for one (their pseudo-terms are shared strings). Within ~10% of what
 * bench/kb-memory.ts measures for the FAQ's records (~3.1 KB each: one unit of 200 characters, 33
 * term counts, 22 content terms).
 */
export function cachedUnitsBytes(entry: RecordUnits): number {
  let bytes = 240 + KINDS_LIST_BYTES + (entry.terms.size > 0 ? hashBytes(entry.terms.size, 20) : 0);
  for (const u of entry.units) bytes += 120 + KINDS_LIST_BYTES + u.text.length + hashBytes(u.tf.size, 28) + hashBytes(u.content.size, 20);
  const context = entry.units[0]?.context;
  if (context && context.size > 0) bytes += hashBytes(context.size, 20);
  const first = entry.units[0] as AnalysedUnit | undefined;
  if (first?.contextText) bytes += first.contextText.length;
  return bytes;
}

/**
 * Records do not change once stored, and the same few records answer most questions, so
 * their analysed units are kept (bounded) instead of being recomputed for every query. The
 * key is the record id, and an entry is used only if the record's text, title and kind and
 * `maxChars` (everything the analysis reads) are those it was made from; otherwise the record
 * is analysed afresh and replaces it. The units are returned shared, not copied: callers only
 * read them. Owned by the answerer that uses it (ExtractiveAnswerer, LlmAnswerer), not module state.
 *
 * Bounded by approximate bytes, least recently used dropped first, and entries idle for
 * `idleMs` are dropped (issue 14, memory per knowledge base: a count of 20,000 records, ~3 KB
 * each, let every one of 1,000 knowledge bases queried once hold ~11 KB here; an analysis is
 * ~6 µs a short FAQ record, so a miss costs a query up to ~30 µs). A record is kept the second
 * time it is asked for within the last `seenAtMost` records analysed and not kept (see `seen`).
 */
export class RecordUnitsCache {
  private readonly entries: LRUCache<string, CachedUnits>;
  private readonly idleMs: number;
  private readonly now: () => number;
  private sweptAt: number;
  /**
   * Ids of records analysed once and not kept. A round robin over thousands of knowledge bases
   * comes back to a record long after the cache would have dropped it (issue 14: at 10,000
   * knowledge bases nearly every look-up missed), so keeping every analysis only churned the cache
   * and made old-generation garbage for the collector. Emptied when full, and when the cache has
   * gone idle.
   */
  private readonly seen = new Set<string>();
  private readonly seenAtMost: number;

  constructor(options: RecordUnitsCacheOptions = {}) {
    const maxSize = Math.max(1, Math.floor(options.maxBytes ?? 8 * 1024 * 1024));
    this.entries = new LRUCache<string, CachedUnits>({ maxSize, sizeCalculation: (entry) => Math.max(1, Math.min(maxSize, cachedUnitsBytes(entry))) });
    this.idleMs = options.idleMs ?? 5 * 60_000;
    this.seenAtMost = Math.max(0, Math.floor(options.seenAtMost ?? 8192));
    this.now = options.now ?? Date.now;
    this.sweptAt = this.now();
  }

  /** Entries held (tests, the memory bench). */
  get size(): number {
    return this.entries.size;
  }

  /** Approximate bytes held. */
  get heldBytes(): number {
    return this.entries.calculatedSize;
  }

  units(r: RetrievedRecord, maxChars: number, language = 'en'): RecordUnits {
    const now = this.now();
    this.sweepIdle(now);
    const entry = this.entries.get(r.recordId);
    if (entry && entry.text === r.text && entry.title === r.title && entry.kind === r.kind && entry.maxChars === maxChars && entry.language === language) {
      entry.usedAt = now;
      return entry;
    }
    const fresh: CachedUnits = { text: r.text, title: r.title, kind: r.kind, maxChars, language, usedAt: now, ...analysedUnits(r, maxChars, language) };
    // Kept when the record came before (or its entry is out of date); otherwise only its id, for next time.
    if (entry !== undefined || this.seenAtMost === 0 || this.seen.delete(r.recordId)) {
      this.entries.set(r.recordId, fresh);
    } else {
      if (this.seen.size >= this.seenAtMost) this.seen.clear();
      this.seen.add(r.recordId);
    }
    return fresh;
  }

  /**
   * Drops the entries unused for `idleMs`, at most once per tenth of it: they are the least
   * recently used, so the walk from that end stops at the first recent one.
   */
  private sweepIdle(now: number): void {
    if (now - this.sweptAt < this.idleMs / 10) return;
    this.sweptAt = now;
    const idle: string[] = [];
    for (const key of this.entries.rkeys()) {
      const entry = this.entries.peek(key);
      if (entry && now - entry.usedAt < this.idleMs) break;
      idle.push(key);
    }
    for (const key of idle) this.entries.delete(key);
    if (this.entries.size === 0) this.seen.clear();
  }
}

/** A record's units: from `cache` when given, else analysed afresh. */
export function recordUnits(r: RetrievedRecord, maxChars: number, language = 'en', cache?: RecordUnitsCache): RecordUnits {
  return cache ? cache.units(r, maxChars, language) : analysedUnits(r, maxChars, language);
}

function analysedUnits(r: RetrievedRecord, maxChars: number, language: string): RecordUnits {
  return summarise(analyseRecord(r, maxChars, language));
}

function summarise(units: Unit[]): RecordUnits {
  let totalLen = 0;
  for (const u of units) totalLen += u.len;
  if (units.length <= 1) return { units, terms: NO_TERMS, totalLen };
  const terms = new Set<string>();
  for (const u of units) {
    for (const t of u.tf.keys()) terms.add(t);
    for (const t of u.context) terms.add(t);
  }
  return { units, terms, totalLen };
}

/**
 * The units of a record. A Q&A answer short enough to quote whole is one unit: answering with
 * half of it would be less readable and no more faithful.
 */
function analyseRecord(r: RetrievedRecord, maxChars: number, language: string): Unit[] {
  // Footnote markers copied into a record ("…in 1066.[3]") would read as citations of our
  // sources, and confuse sentence splitting; they go before anything else.
  const text = /[[【]/.test(r.text) ? removeDanglingCitations(r.text, 0) : r.text;
  const { context, bodyStart } = layout(r, text);
  const ctx = context ? new Set(tokenize(context, 'index', language)) : NO_CONTEXT;
  // Kept as text only where it may write a phrasal verb: a title is often a slice of the record's text, which it would keep alive.
  const phrased = context !== null && mayWritePhrase(context) ? context : null;
  const body = text.slice(bodyStart);
  const collapsed = collapseSpace(body);
  if (collapsed.length === 0) {
    // Nothing but a title: the record's text is all there is to quote.
    return splitSentences(text).map((s) => makeUnit(s.text, s.start, NO_CONTEXT, null, language));
  }
  if (r.kind === 'qa' && context && collapsed.length <= maxChars) {
    const lead = body.length - body.trimStart().length;
    return [makeUnit(collapsed, bodyStart + lead, ctx, phrased, language)];
  }
  return withLists(splitSentences(body, bodyStart), maxChars, text).map((s) => makeUnit(s.text, s.start, ctx, phrased, language, s.plain));
}

const LIST_ITEM_RE = /^(?:[-*•–]|\d{1,2}[.)])\s/;

/** A sentence, or a list joined into one, with the text its words are read from (`AnalysedUnit.plain`). */
interface ListedSentence extends Sentence {
  plain?: string;
}

const FIRST_STEP_RE = /^1[.)]\s/;
const STEP_NUMBER_RE = /^(\d{1,2})[.)]\s/;

/** Whether the sentence at `start` of `text` begins a line (a list item's sentence does; its second sentence does not). */
function startsLine(text: string, start: number): boolean {
  let k = start - 1;
  while (k >= 0 && (text[k] === ' ' || text[k] === '\t')) k--;
  return k < 0 || text[k] === '\n';
}

/**
 * A sentence that introduces a list ("…check that:") is one unit with its items, and numbered
 * steps ("1. On the sign-in page, click Forgot password? 2. Enter …") are one unit together, when
 * they fit the budget: quoting the lead without the items answers nothing, and steps 1 and 4
 * without 2 and 3 mislead. An item's further sentences on its line belong to it.
 */
function withLists(sentences: Sentence[], maxChars: number, text: string): ListedSentence[] {
  const out: ListedSentence[] = [];
  for (let i = 0; i < sentences.length; i++) {
    const lead = sentences[i] as Sentence;
    const steps = FIRST_STEP_RE.test(lead.text);
    if (!lead.text.endsWith(':') && !steps) {
      out.push(lead);
      continue;
    }
    let joined = lead.text;
    let plain = withoutListNumber(lead.text);
    let items = steps ? 1 : 0;
    let cut = false;
    let j = i + 1;
    for (; j < sentences.length; j++) {
      const s = sentences[j] as Sentence;
      const item = steps ? Number(STEP_NUMBER_RE.exec(s.text)?.[1]) === items + 1 : LIST_ITEM_RE.test(s.text);
      // A further sentence of an item, on its line.
      const continues = items > 0 && !startsLine(text, s.start);
      if (!item && !continues) break;
      if (joined.length + 1 + s.text.length > maxChars) {
        cut = true;
        break;
      }
      if (item) items++;
      joined += ` ${s.text}`;
      plain += ` ${item ? withoutListNumber(s.text) : s.text}`;
    }
    // Steps that do not fit whole stay sentences of their own.
    if (steps && cut) {
      out.push(lead);
      continue;
    }
    out.push({ text: joined, start: lead.start, plain });
    i = j - 1;
  }
  return out;
}
