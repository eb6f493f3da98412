/**
 * Decides what an extractive answer says: scores every unit (sentence, or a short Q&A answer)
 * of the top records against the query, checks that the best one covers the query, and picks
 * up to a few units with Maximal Marginal Relevance (Carbonell & Goldstein 1998) so the answer
 * is relevant without repeating itself.
 */
import { isAnswerTypeTerm } from '../language/answer-types.js';
import { commonRank, generalInformativeness } from '../language/common-words.js';
import type { OrderDirection, OrderedBy } from '../language/product-order.js';
import { idf as bm25Idf, DEFAULT_BM25, lengthNorm, saturate } from '../retrieval/bm25.js';
import { KnowledgeIndex } from '../retrieval/knowledge-index.js';
import { isNumberWord } from '../retrieval/match-word.js';
import type { ExpandedQuery, QueryWord } from '../retrieval/query-expansion.js';
import { withAcronymsSpelledOut } from './acronyms.js';
import { fittingProducts, isThirdKind } from './fitting-products.js';
import { meetsOnlyPlaces } from './place-only.js';
import { placesAboutOtherCountries, placesLeftOut } from './other-places.js';
import { eachOfKind, type KindNaming, kindNaming, MIN_NAMING_CREDIT } from './product-kinds.js';
import { capacityOf, isUnquotedLine, priceOf, weightOf } from './product-lines.js';
import type { RetrievedRecord } from './types.js';
import { matchedShare, namesUnknownAcronym, unknownNames, withUnknownNames } from './unknown-names.js';
import { askedByRecord, type RecordUnits, type RecordUnitsCache, recordHasTerm, recordUnits, type Unit, unitTermCount } from './units.js';

export interface ExtractiveOptions {
  /**
   * Document frequencies of the knowledge base (pass its `KnowledgeIndex`). Without them, IDF is
   * estimated from the retrieved records' sentences, which weighs query terms less well.
   */
  stats?: TermStats;
  /** Where analysed records are kept between queries (owned by the answerer); without it each query analyses afresh. */
  units?: RecordUnitsCache;
  /** Records considered, from the top of `retrieved`. */
  maxRecords?: number;
  /** Most units (sentences) in an answer. */
  maxSentences?: number;
  /** Character budget of the quoted text (markers excluded); the first unit may be cut to fit. */
  maxChars?: number;
  /** MMR trade-off: 1 = relevance only, 0 = diversity only. */
  lambda?: number;
  /** Share of the query's weighted content words the best unit must cover to answer at all (a floor under `minConfidence`). */
  minCoverage?: number;
  /**
   * Confidence (0…1) below which the answerer refuses. The confidence combines how much of the
   * question the best unit covers with how strongly the best record matched (see `confidenceOf`).
   */
  minConfidence?: number;
  /**
   * Coverage at which the answerer answers whatever the confidence: every informative word of the
   * question is in one unit (long passages match with low retrieval scores, yet this is safe).
   */
  sufficientCoverage?: number;
  /**
   * `sufficientCoverage` answers only when the covered words weigh at least this much, in units of
   * the largest IDF a term has in the knowledge base (about how many rare words), or the best
   * record leads the runner-up by `sufficientMinLead`. Covering "every informative word" says
   * little when the only one is a word most records share and retrieval cannot tell the records
   * apart: "do I need to register before riding?" of a bike rental's help centre, where "register"
   * is too common a word to weigh and "ride" is in half the records. A small knowledge base's
   * words weigh little, but there the right record leads ("can I pay cash?" of a four-section FAQ).
   */
  sufficientMinWeight?: number;
  /** See `sufficientMinWeight`: the best retrieval score's lead over the runner-up's, as a share of it. */
  sufficientMinLead?: number;
  /** A further unit must reach this share of the best unit's relevance. */
  minRelativeRelevance?: number;
  /** Weight of the record's retrieval score (relative to the best record's) in a unit's relevance. */
  priorWeight?: number;
  /** How much a query term found only in a record's title/question counts for its units (1 = as in the unit). */
  contextWeight?: number;
  /**
   * Coverage credit for a query term found in the unit's record but not in the unit itself
   * (0 = the sentence must contain it, 1 = anywhere in the record will do).
   */
  recordCredit?: number;
  /**
   * Share of a word's weight that does not depend on how common it is in general language: a
   * matched word weighs `idf · (floor + (1 − floor) · informativeness)`.
   */
  generalFloor?: number;
  /**
   * Weight of a word the knowledge base does not contain (after variants, compounds and spelling),
   * relative to an unseen term's IDF, times its general-language informativeness: ordinary words
   * ("long", "things") weigh almost nothing, names of things the records never mention ("Mars",
   * "oat") veto.
   */
  unmatchedWeight?: number;
  /** A further record is quoted only when it covers this share of the question's weight that the chosen units do not. */
  minNewCoverage?: number;
  /**
   * What a further record newly covers counts only the question's words at least this informative
   * in general language (0 very common … 1 rare): a record that shares "two", "weeks" or "lass"
   * with the question answers no part of it that the first record leaves open.
   */
  minNewWordInformativeness?: number;
  /**
   * A product is the answer only to a question about it: when the words of the question that are
   * not the product's name carry at least this share of its weight, the product's record must
   * cover one of them ("Does the E48 come in red?" is not answered by the E48's specs). 1 = off.
   */
  minAskedShare?: number;
}

/** What the answerer needs of an index; `KnowledgeIndex` provides it. */
export interface TermStats {
  readonly size: number;
  /** ISO 639-1 language the index analyses its records in. */
  readonly language: string;
  docFreq(term: string): number;
  /** The question's words matched to the index's terms (see query-expansion.ts). */
  expand(query: string): ExpandedQuery;
}

export type ResolvedOptions = Required<Omit<ExtractiveOptions, 'stats' | 'units'>> & Pick<ExtractiveOptions, 'stats' | 'units'>;

/** Defaults, calibrated on the evaluation in eval/ (see docs/quality.md), not on single questions. */
export const DEFAULT_EXTRACTIVE_OPTIONS: Readonly<ResolvedOptions> = {
  maxRecords: 5,
  maxSentences: 3,
  maxChars: 600,
  lambda: 0.7,
  minCoverage: 0.15,
  minConfidence: 0.35,
  sufficientCoverage: 0.55,
  sufficientMinWeight: 0.6,
  sufficientMinLead: 0.1,
  minRelativeRelevance: 0.5,
  priorWeight: 0.3,
  contextWeight: 0.8,
  recordCredit: 0.5,
  generalFloor: 0.4,
  unmatchedWeight: 1,
  minNewCoverage: 0.15,
  minNewWordInformativeness: 0.5,
  minAskedShare: 0.15,
};

/**
 * A unit scored against one query. It refers to the unit rather than copying it: units are
 * cached per record and shared between queries (read-only).
 */
export interface ScoredUnit {
  unit: Unit;
  /** Index of the unit's record in `AnswerPlan.records`. */
  record: number;
  /** IDF-weighted share of the query's content terms found in the unit or its context, 0…1 (plus record credit). */
  coverage: number;
  /** Per question word, how much of it the unit covers (0…1), for telling what a further unit adds. */
  covers: Float64Array;
  /** Whether the unit itself or its context contains a query term; only such units are quoted. */
  matched: boolean;
  /** Ranking value: BM25-style match blended with the record's retrieval score. */
  relevance: number;
  /**
   * `relevance`, for choosing the unit an answer opens with: more where the record's own question
   * is about what the visitor's is (it meets every word that weighs). Its answers of the kind the
   * visitor asks for, when its question asks for that kind too ("How much is UK delivery?" for
   * "How much is delivery?"), then count as its question's words do; and each of the visitor's
   * words that its question holds but the unit does not write counts as written once in the unit
   * ("Vos thés sont bio ?" opens with the section "D'où viennent vos thés et sont-ils bio ?",
   * which says "biologiques", not with an introduction that says "thés … bio").
   */
  leadRelevance: number;
}

export interface AnswerPlan {
  /** Coverage of the best-covering unit. */
  coverage: number;
  /** How likely the records answer the question, 0…1: the abstention signal (`confidenceOf`). */
  confidence: number;
  /** The question's words as matched to the knowledge base. */
  words: readonly QueryWord[];
  /** Weight of each word in `words`. */
  weights: readonly number[];
  grounded: boolean;
  /** Chosen units in selection order (most relevant first); empty when not grounded. */
  selected: ScoredUnit[];
  /** The records considered (a prefix of `retrieved`). */
  records: RetrievedRecord[];
  /** The question asks what products of a kind there are: `selected` holds one unit of each, to be listed by name. */
  range?: true;
  /** The share of the retrieval score the confidence counts, below 1 when the question names something no record writes whole. */
  scoreShare?: number;
  /** Every unit of each record in `records` (same index), as analysed for this plan: set when grounded. */
  units?: readonly RecordUnits[];
}

/** `value` unless it is undefined (an option explicitly set to undefined takes the default). */
function or<T>(value: T | undefined, fallback: T): T {
  return value !== undefined ? value : fallback;
}

export function resolveOptions(options: ExtractiveOptions = {}): ResolvedOptions {
  // Spelled out rather than copied key by key: this runs for every query.
  const d = DEFAULT_EXTRACTIVE_OPTIONS;
  return {
    maxRecords: or(options.maxRecords, d.maxRecords),
    maxSentences: or(options.maxSentences, d.maxSentences),
    maxChars: or(options.maxChars, d.maxChars),
    lambda: or(options.lambda, d.lambda),
    minCoverage: or(options.minCoverage, d.minCoverage),
    minConfidence: or(options.minConfidence, d.minConfidence),
    sufficientCoverage: or(options.sufficientCoverage, d.sufficientCoverage),
    sufficientMinWeight: or(options.sufficientMinWeight, d.sufficientMinWeight),
    sufficientMinLead: or(options.sufficientMinLead, d.sufficientMinLead),
    minRelativeRelevance: or(options.minRelativeRelevance, d.minRelativeRelevance),
    priorWeight: or(options.priorWeight, d.priorWeight),
    contextWeight: or(options.contextWeight, d.contextWeight),
    recordCredit: or(options.recordCredit, d.recordCredit),
    generalFloor: or(options.generalFloor, d.generalFloor),
    unmatchedWeight: or(options.unmatchedWeight, d.unmatchedWeight),
    minNewCoverage: or(options.minNewCoverage, d.minNewCoverage),
    minNewWordInformativeness: or(options.minNewWordInformativeness, d.minNewWordInformativeness),
    minAskedShare: or(options.minAskedShare, d.minAskedShare),
    stats: or(options.stats, d.stats),
    units: options.units,
  };
}

/** Statistics of the retrieved records alone, when the knowledge base's own are not supplied. */
function localStats(records: readonly RetrievedRecord[]): TermStats {
  return KnowledgeIndex.build(records.map((r) => ({ recordId: r.recordId, title: r.title, text: r.text, sourceName: r.sourceName })));
}

/**
 * How much each question word weighs in coverage: a matched word by its IDF in the knowledge
 * base, damped when it is a common word of the language; a word the knowledge base lacks by its
 * general-language informativeness alone.
 */
function wordWeights(words: readonly QueryWord[], stats: TermStats, o: ResolvedOptions): number[] {
  const unseen = bm25Idf(stats.size, 0);
  return words.map((w) => {
    if (w.matches.length === 0) return o.unmatchedWeight * unseen * w.general;
    // A kind of answer weighs as its own term, which no record has, whatever words also find it.
    let df = 0;
    if (!isAnswerTypeTerm(w.term)) for (const m of w.matches) df = Math.max(df, stats.docFreq(m.term));
    return bm25Idf(stats.size, df) * (o.generalFloor + (1 - o.generalFloor) * w.general);
  });
}

/** Per record, the union of two lists of word indexes (either may be undefined). */
function merged(a: readonly (ReadonlySet<number> | undefined)[] | undefined, b: readonly (ReadonlySet<number> | undefined)[] | undefined): readonly (ReadonlySet<number> | undefined)[] | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a.map((x, r) => {
    const y = b[r];
    return x === undefined ? y : y === undefined ? x : new Set([...x, ...y]);
  });
}

/** The share of a record's retrieval score that counts when the words `skip` do not count in it (`matchedShare`). */
function scoreKept(skip: ReadonlySet<number> | undefined, words: readonly QueryWord[], weights: readonly number[]): number {
  return skip === undefined ? 1 : matchedShare(words, weights, (i) => !skip.has(i));
}

function similarity(a: Unit, b: Unit): number {
  if (a.content.size === 0 || b.content.size === 0) return a.text === b.text ? 1 : 0;
  let shared = 0;
  for (const t of a.content) if (b.content.has(t)) shared++;
  return shared / Math.sqrt(a.content.size * b.content.size);
}

/**
 * Whether a record's own question (its units' context) is about what the visitor's question is: it
 * meets every one of the visitor's words that weighs, besides the kind of answer asked for.
 */
function asksTheSame(u: Unit, words: readonly QueryWord[], weights: readonly number[], skip: ReadonlySet<number> | undefined): boolean {
  let topical = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as QueryWord;
    if (skip?.has(i) || isAnswerTypeTerm(w.term) || (weights[i] as number) <= 0) continue;
    if (!w.matches.some((m) => u.context.has(m.term))) return false;
    topical = true;
  }
  return topical;
}

/**
 * Scores every unit of `units` (one entry per record of `records`, same order), in record then
 * unit order. Plain loops: this runs for every query.
 */
function score(units: readonly RecordUnits[], records: readonly RetrievedRecord[], words: readonly QueryWord[], weights: readonly number[], o: ResolvedOptions, elsewhere: readonly (ReadonlySet<number> | undefined)[] | undefined, language: string): ScoredUnit[] {
  let sum = 0;
  for (const w of weights) sum += w;
  const total = sum || 1;
  // Integer sums: adding per-record totals gives exactly the sum over all units.
  let totalLen = 0;
  let unitCount = 0;
  for (const r of units) {
    totalLen += r.totalLen;
    unitCount += r.units.length;
  }
  const avgLen = totalLen / Math.max(1, unitCount);
  let topScore = 0;
  for (const r of records) topScore = Math.max(topScore, r.score);
  const { k1, b } = DEFAULT_BM25;
  const askingKind = words.some((w) => isAnswerTypeTerm(w.term));
  const out: ScoredUnit[] = [];
  for (let record = 0; record < units.length; record++) {
    const entry = units[record] as RecordUnits;
    const prior = topScore > 0 ? (records[record]?.score ?? 0) / topScore : 0;
    // A Q&A record's question is the question its answer answers: met there, a word counts as
    // fully as in the answer ("Wann bekomme ich mein Geld zurück?" is that record's question, and
    // another record's "… oder dein Geld zurück" is not). A heading or a product's name less so.
    // So is a heading written as a question ("### How do I end my ride?"): the section answers it,
    // and "How do I end my ride?" is not answered by another section's "End the ride … as usual".
    const asked = records[record]?.kind === 'qa' || records[record]?.title?.trimEnd().endsWith('?') === true;
    const contextWeight = asked ? 1 : o.contextWeight;
    const skip = elsewhere?.[record];
    // Whether the record's question is about what the visitor's is, and the kinds of answer it asks for (`leadRelevance`).
    const first = entry.units[0];
    const same = asked && first !== undefined && asksTheSame(first, words, weights, skip);
    const asks = same && askingKind ? askedByRecord(entry, records[record] as RetrievedRecord, language) : undefined;
    for (const u of entry.units) {
      let covered = 0;
      let match = 0;
      let lead = 0;
      let matched = false;
      const covers = new Float64Array(words.length);
      const norm = lengthNorm(u.len, avgLen, b);
      for (let i = 0; i < words.length; i++) {
        const word = words[i] as QueryWord;
        const w = weights[i] as number;
        let best = 0;
        let bestMatch = 0;
        let askedMatch = 0;
        if (skip?.has(i)) continue;
        for (const m of word.matches) {
          const tf = unitTermCount(u, m.term);
          const inContext = u.context.has(m.term);
          if (tf > 0 || inContext) {
            best = Math.max(best, m.credit);
            matched = true;
            // A term found elsewhere in the record earns partial credit.
          } else if (recordHasTerm(entry, m.term)) best = Math.max(best, o.recordCredit * m.credit);
          // saturate(1) at average length is 1, so an exact match weighs like the context bonus at weight 1.
          // In a record that answers a question, the question's word counts once more where the unit repeats it (BM25F's title field).
          bestMatch = Math.max(bestMatch, m.credit * (asked && inContext && tf > 0 ? saturate((tf + 1) / norm, k1) : Math.max(saturate(tf / norm, k1), inContext ? contextWeight : 0)));
          if (tf > 0 && asks?.includes(m.term) === true) askedMatch = Math.max(askedMatch, m.credit * (saturate((tf + 1) / norm, k1) - saturate(tf / norm, k1)));
          else if (same && inContext && tf === 0) askedMatch = Math.max(askedMatch, m.credit * saturate(1 / norm, k1));
        }
        lead += w * askedMatch;
        covers[i] = best;
        covered += w * best;
        match += w * bestMatch;
      }
      const relevance = (1 - o.priorWeight) * (match / total) + o.priorWeight * prior;
      out.push({ unit: u, record, coverage: covered / total, covers, matched, relevance, leadRelevance: relevance + (1 - o.priorWeight) * (lead / total) });
    }
  }
  return out;
}

/** Share of the question's weight that `u` covers beyond what `chosen` already covers. */
function newCoverage(u: ScoredUnit, chosen: readonly ScoredUnit[], weights: readonly number[], total: number): number {
  let gain = 0;
  for (let i = 0; i < weights.length; i++) {
    let have = 0;
    for (const c of chosen) have = Math.max(have, c.covers[i] as number);
    gain += (weights[i] as number) * Math.max(0, (u.covers[i] as number) - have);
  }
  return gain / (total || 1);
}

/** Index of the best MMR candidate that still fits the budget, or -1. */
function nextByMmr(candidates: readonly ScoredUnit[], chosen: readonly ScoredUnit[], usedChars: number, best: number, o: ResolvedOptions): number {
  let pick = -1;
  let pickValue = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i] as ScoredUnit;
    if (usedChars + 1 + c.unit.text.length > o.maxChars) continue;
    let redundancy = 0;
    for (const s of chosen) redundancy = Math.max(redundancy, similarity(c.unit, s.unit));
    const value = o.lambda * (c.relevance / best) - (1 - o.lambda) * redundancy;
    if (value > pickValue) {
      pickValue = value;
      pick = i;
    }
  }
  return pick;
}

/**
 * Whether the seed is a product that the question names but asks something of that its record
 * does not hold: the words outside the product's name (its title) weigh at least `minShare` of
 * the question, and no unit of the record covers any of them. A product's name is most of a short
 * question's weight, so without this "What warranty do you give on the Lintel Duo?" is answered
 * with the Lintel Duo's name and price. Words that weigh nothing (ordinary words the records do
 * not use: "heavy", "good") do not count: "How heavy is the E48?" still lists its fields.
 */
function asksWhatProductLacks(seed: ScoredUnit, scored: readonly ScoredUnit[], records: readonly RetrievedRecord[], words: readonly QueryWord[], weights: readonly number[], total: number, minShare: number): boolean {
  if (records[seed.record]?.kind !== 'product' || minShare >= 1) return false;
  const name = seed.unit.context;
  let asked = 0;
  let covered = 0;
  for (let i = 0; i < words.length; i++) {
    const w = weights[i] as number;
    if (w <= 0 || (words[i] as QueryWord).matches.some((m) => name.has(m.term))) continue;
    asked += w;
    for (const u of scored) if (u.record === seed.record && (u.covers[i] as number) > 0) covered += w;
  }
  return asked >= minShare * (total || 1) && covered === 0;
}

/**
 * Whether the question names the product of `u` besides the products already chosen: its words
 * cover at least half of the product's name (its title's terms, each by its IDF and, as the
 * question's words are weighed, how informative it is in general language), one of them a word no
 * chosen product's name has. "the Fellside hand grinder and the E64" names the Hand Grinder next
 * to the E64 ("hand"); "dose" does not name the Fellside E64 Single-Dose Grinder, "the Fellside E64
 * grinder" names no other Fellside grinder, and "one box of the cone filters" not the Knock Box.
 */
function namesProduct(u: ScoredUnit, chosen: readonly ScoredUnit[], words: readonly QueryWord[], stats: TermStats, generalFloor: number): boolean {
  if (chosen.some((c) => c.record === u.record)) return false;
  let all = 0;
  let named = 0;
  let own = false;
  for (const term of u.unit.context) {
    const word = words.find((w) => w.matches.some((m) => m.term === term && m.credit >= MIN_NAMING_CREDIT));
    // Weighed as the question's words are (`wordWeights`): an ordinary word of a name ("box" of
    // "Knock Box") names the product less than its own word does.
    // A size or a model code in the name that the question leaves out ("Gas Canister 230 g" asked
    // as "a gas canister", "Akku-Rasenmäher RM 36-37" as "dem Akku-Rasenmäher") says which of a
    // range, not what the product is: it weighs as an ordinary word.
    const general = word ? word.general : isModelCode(term, stats.language) ? 0 : generalInformativeness(term, stats.language);
    const weight = bm25Idf(stats.size, stats.docFreq(term)) * (generalFloor + (1 - generalFloor) * general);
    all += weight;
    if (word === undefined) continue;
    named += weight;
    if (!chosen.some((c) => c.unit.context.has(term))) own = true;
  }
  return own && all > 0 && named >= 0.5 * all;
}

const DIGIT_RE = /\p{N}/u;

/** A number or a code of a product's name: "230", "E64", and letters too short to be a word of the language ("RM", "HS"). */
function isModelCode(term: string, language: string): boolean {
  return DIGIT_RE.test(term) || (term.length <= 3 && commonRank(term, language) === undefined);
}

/**
 * For "the cheapest …" / "the dearest …" (`valueOf` a product's price) or "the lightest …" (its
 * weight): among the products that cover each informative word of the question as well as the
 * chosen one does (the category word, a named brand), and whose name or category holds each word
 * that names the chosen one's kind ("the cheapest espresso machine" is no scale "made for
 * espresso": "machine" is an ordinary word, but it names the kind), the one with the lowest or
 * highest value, by its most relevant unit. Only the retrieved records are compared: a catalogue
 * with more matching products than are retrieved may hold a cheaper one (docs/quality.md).
 */
function byOrder(seed: ScoredUnit, scored: readonly ScoredUnit[], records: readonly RetrievedRecord[], words: readonly QueryWord[], lacking: ReadonlySet<number>, order: OrderDirection, o: ResolvedOptions, valueOf: (record: RetrievedRecord) => number | undefined, names: KindNaming): ScoredUnit {
  // Per product record: the best credit of each word over its units, and its most relevant unit.
  const covers = new Map<number, Float64Array>();
  const lead = new Map<number, ScoredUnit>();
  for (const u of scored) {
    if (lacking.has(u.record) || !u.matched || records[u.record]?.kind !== 'product') continue;
    let c = covers.get(u.record);
    if (!c) covers.set(u.record, (c = new Float64Array(words.length)));
    for (let i = 0; i < words.length; i++) c[i] = Math.max(c[i] as number, u.covers[i] as number);
    const known = lead.get(u.record);
    if (!known || u.relevance > known.relevance) lead.set(u.record, u);
  }
  const target = covers.get(seed.record);
  if (!target) return seed;
  const kind = words.filter((w) => names(seed, w));
  let chosen = seed;
  let chosenValue = valueOf(records[seed.record] as RetrievedRecord);
  for (const [record, c] of covers) {
    let asGood = true;
    for (let i = 0; i < words.length && asGood; i++) if ((words[i] as QueryWord).general >= o.minNewWordInformativeness && (c[i] as number) + 1e-9 < (target[i] as number)) asGood = false;
    if (asGood && kind.length > 0) {
      const unit = lead.get(record) as ScoredUnit;
      asGood = kind.every((w) => names(unit, w));
    }
    const value = asGood ? valueOf(records[record] as RetrievedRecord) : undefined;
    if (value === undefined) continue;
    if (chosenValue === undefined || (order === 'lowest' ? value < chosenValue : value > chosenValue)) {
      chosen = lead.get(record) as ScoredUnit;
      chosenValue = value;
    }
  }
  return chosen;
}

/** What products are ordered by, per kind of order (language/product-order.ts). */
const ORDER_VALUE: Readonly<Record<OrderedBy, (record: RetrievedRecord) => number | undefined>> = { price: priceOf, weight: weightOf, capacity: capacityOf };

/**
 * Weights of the answer-or-refuse model: a logistic regression fitted on the tuning half of the
 * visitor-question sets by `npx tsx eval/calibrate.ts` (docs/quality.md), which prints them.
 */
export const CONFIDENCE_MODEL: Readonly<ConfidenceModel> = { bias: -3.26, coverage: 2.32, score: 0.99 };

/**
 * How likely the retrieved records answer the question, 0…1, from two signals: `coverage`, the
 * weighted share of the question's words the best unit covers, and the best record's retrieval
 * score in units of the largest IDF a term can have in this knowledge base (so the scale does not
 * depend on its size): about how many rare words of the question the record matched.
 */
export function confidenceOf(coverage: number, topScore: number, size: number, model: ConfidenceModel = CONFIDENCE_MODEL): number {
  const z = model.bias + model.coverage * coverage + model.score * matchedRareWords(topScore, size);
  return 1 / (1 + Math.exp(-z));
}

export interface ConfidenceModel {
  bias: number;
  coverage: number;
  score: number;
}

/** A retrieval score in units of the largest IDF a term has in a knowledge base of `size` records. */
export function matchedRareWords(topScore: number, size: number): number {
  return topScore / Math.max(1e-9, bm25Idf(Math.max(1, size), 1));
}

/**
 * Whether a question word that the knowledge base has says what the question is about: not a
 * number, nor a kind of answer, unless that kind is a way of reaching the business that the
 * records offer ("What's your phone number?" / "call us on …": the index counts the kinds of
 * contact its records give, and the words that offer them are matches of the kind).
 */
function namesATopic(w: QueryWord, stats: TermStats): boolean {
  if (isAnswerTypeTerm(w.term)) return w.matches.length > 1 || stats.docFreq(w.term) > 0;
  return w.matches.length > 0 && !isNumberWord(w.surface);
}

export function planAnswer(query: string, retrieved: readonly RetrievedRecord[], options?: ExtractiveOptions): AnswerPlan {
  return planResolved(query, retrieved, resolveOptions(options));
}

/**
 * For a question about the range ("Do you sell espresso machines?"): of each product whose name
 * holds every word naming the kind (or a word it matches: "machines" / "Machine"), its best unit,
 * in retrieval order. Empty when the question names nothing the records have.
 */
function rangeProducts(units: readonly RecordUnits[], records: readonly RetrievedRecord[], kindWords: readonly QueryWord[], scored: readonly ScoredUnit[]): ScoredUnit[] {
  const kind = kindWords.filter((w) => !isAnswerTypeTerm(w.term));
  if (kind.length === 0) return [];
  const listed: ScoredUnit[] = [];
  for (let r = 0; r < records.length; r++) {
    if ((records[r] as RetrievedRecord).kind !== 'product') continue;
    const name = (units[r] as RecordUnits).units[0]?.context;
    if (!name || !kind.every((w) => w.matches.some((m) => name.has(m.term)))) continue;
    let best: ScoredUnit | undefined;
    for (const u of scored) if (u.record === r && (best === undefined || u.relevance > best.relevance)) best = u;
    if (best) listed.push(best);
  }
  return listed;
}

/** The second-best retrieval score among the records not set aside (0 when there is none). */
function runnerUp(records: readonly RetrievedRecord[], lacking: ReadonlySet<number>): number {
  let best = 0;
  let second = 0;
  for (let r = 0; r < records.length; r++) {
    if (lacking.has(r)) continue;
    const score = (records[r] as RetrievedRecord).score;
    if (score > best) {
      second = best;
      best = score;
    } else if (score > second) second = score;
  }
  return second;
}

/** `planAnswer` with options already resolved (the extractive answerer resolves them once). */
export function planResolved(query: string, retrieved: readonly RetrievedRecord[], o: ResolvedOptions): AnswerPlan {
  const records = retrieved.slice(0, Math.max(0, o.maxRecords));
  const stats = o.stats ?? localStats(records);
  // "2FA" where a record writes "Two-factor authentication" (acronyms.ts).
  const expanded = withAcronymsSpelledOut(query, stats.expand(query), records, (text) => stats.expand(text));
  const unknown = unknownNames(records, expanded.words, stats.language);
  const words = unknown ? withUnknownNames(expanded.words, unknown) : expanded.words;
  const weights = wordWeights(words, stats, o);
  // Retrieval scored the words of an unknown name as found: its score counts without their share.
  const scoreShare = words === expanded.words ? 1 : matchedShare(expanded.words, wordWeights(expanded.words, stats, o), (i) => (words[i] as QueryWord).matches.length > 0);
  const withShare = (plan: AnswerPlan): AnswerPlan => (scoreShare < 1 ? Object.assign(plan, { scoreShare }) : plan);
  const refused = (coverage: number, confidence: number): AnswerPlan => withShare({ coverage, confidence, words, weights, grounded: false, selected: [], records });
  // No content words ("what is it?") leaves nothing to ground an answer on: abstain rather than guess.
  if (records.length === 0 || words.length === 0) return refused(0, 0);
  // A number the records share is no topic: "Can I send something back after 3 weeks?" is not
  // answered by "Delivery takes 3 to 5 days" when no word of the question but the number is met.
  if (!words.some((w) => namesATopic(w, stats))) return refused(0, 0);
  const units = records.map((r) => recordUnits(r, o.maxChars, stats.language, o.units));
  // "Italien" met by "EU" does not count in a record about Austria, nor "Berlin" in one that leaves Germany out (other-places.ts).
  const leftOut = placesLeftOut(records, words, stats.language);
  const elsewhere = merged(placesAboutOtherCountries(records, units, words, stats.language), leftOut);
  const scored = score(units, records, words, weights, o, elsewhere, stats.language);
  let total = 0;
  for (const w of weights) total += w;
  // A product the question names but asks something of that its record lacks is not the answer
  // (`asksWhatProductLacks`); the decision is taken again without the products, and a passage or
  // a Q&A record may answer instead.
  const lacking = new Set<number>();
  if (expanded.range && records.some((r) => r.kind === 'product')) {
    const { head, qualified } = expanded.range;
    const listed = rangeProducts(units, records, words.filter((w) => head.has(w.surface)), scored);
    // A kind with a qualifier ("filters for the glass dripper") is answered as any question, from the products it names.
    if (listed.length > 0 && !qualified) return { coverage: 1, confidence: 1, words, weights, grounded: true, selected: listed, records, range: true };
    // No product is of the kind asked for ("Do you sell decaf beans?"): a passage or a Q&A record may still answer.
    if (listed.length === 0) for (let r = 0; r < records.length; r++) if ((records[r] as RetrievedRecord).kind === 'product') lacking.add(r);
    if (lacking.size === records.length) return refused(0, 0);
  }
  let coverage = 0;
  let confidence = 0;
  const answered = (selected: ScoredUnit[]): AnswerPlan => withShare({ coverage, confidence, words, weights, grounded: true, selected, records, units });
  let seed: ScoredUnit | undefined;
  // An acronym no record has names something they never mention ("PFAS-free"), however well the
  // rest is met: refused with the coverage and confidence the rest earns.
  const namesAcronym = namesUnknownAcronym(query, words, stats.language);
  // Which question words name which product's kind: made once, for the product rules that ask.
  let kindNames: KindNaming | undefined;
  const namesOfKinds = (): KindNaming => (kindNames ??= kindNaming(scored, records));
  for (;;) {
    coverage = 0;
    for (const u of scored) if (!lacking.has(u.record)) coverage = Math.max(coverage, u.coverage);
    let topScore = 0;
    // Retrieval counted a place in a record that leaves it out: the record's score without that share.
    for (let r = 0; r < records.length; r++) if (!lacking.has(r)) topScore = Math.max(topScore, (records[r] as RetrievedRecord).score * scoreKept(leftOut?.[r], words, weights));
    // Retrieval scores are on this scale only when they come from the knowledge base's own index;
    // without its statistics, coverage alone decides.
    confidence = o.stats ? confidenceOf(coverage, topScore * scoreShare, stats.size) : 0;
    // Covering every informative word answers too, unless that is little evidence that no record leads on.
    const sufficient = coverage >= o.sufficientCoverage && (!o.stats || matchedRareWords(coverage * total, stats.size) >= o.sufficientMinWeight || topScore >= (1 + o.sufficientMinLead) * runnerUp(records, lacking));
    if (coverage <= 0 || coverage < o.minCoverage || (confidence < o.minConfidence && !sufficient)) return refused(coverage, confidence);
    if (namesAcronym) return refused(coverage, confidence);
    // Seed with the most relevant unit among those that cover enough (the first on ties); then MMR over the rest.
    seed = undefined;
    for (const u of scored) if (!lacking.has(u.record) && u.matched && u.coverage >= o.minCoverage && (seed === undefined || u.leadRelevance > seed.leadRelevance)) seed = u;
    if (seed === undefined) return refused(coverage, confidence);
    // "What is the weather in Berlin?" is not answered by the Berlin store's opening hours.
    if (meetsOnlyPlaces(seed.covers, words, weights)) return refused(coverage, confidence);
    // "Which tamper fits the Lintel One?" is not answered with a portafilter that fits it.
    if (isThirdKind(query, stats.language, seed, scored, records, words, weights, namesOfKinds)) {
      lacking.add(seed.record);
      continue;
    }
    if (!asksWhatProductLacks(seed, scored, records, words, weights, total, o.minAskedShare)) break;
    // "Which tamper fits the Lintel Compact?": the products of the kind asked for that give a size the named one gives.
    const fitting = fittingProducts(query, stats.language, seed, scored, records, words, weights, namesOfKinds());
    if (fitting !== undefined) return answered(fitting);
    // The product named is what the question is about: another product (an accessory that fits
    // it) is not the answer either, but a passage or a Q&A record may be.
    for (let r = 0; r < records.length; r++) if ((records[r] as RetrievedRecord).kind === 'product') lacking.add(r);
  }
  if (expanded.order && records[seed.record]?.kind === 'product') seed = byOrder(seed, scored, records, words, lacking, expanded.order.direction, o, ORDER_VALUE[expanded.order.by], namesOfKinds());
  // "both grinders", "each of your milk jugs": the field asked for, of each product of the kind.
  const each = expanded.each && records[seed.record]?.kind === 'product' ? eachOfKind(seed, scored, records, words, weights, lacking, o.maxChars, namesOfKinds()) : undefined;
  if (each !== undefined) return answered(each);
  const best = seed.relevance > 0 ? seed.relevance : 1;
  // The weights another record's new coverage is counted in: informative words only.
  const newWeights = weights.map((w, i) => ((words[i] as QueryWord).general >= o.minNewWordInformativeness ? w : 0));
  const selected = [seed];
  let used = seed.unit.text.length;
  // With a product as the answer, another product the question names is answered too, even where it
  // adds few words of its own ("the Fellside hand grinder and the E64": "hand").
  const seedIsProduct = records[seed.record]?.kind === 'product';
  const namedProduct = (c: ScoredUnit) => seedIsProduct && records[c.record]?.kind === 'product' && namesProduct(c, selected, words, stats, o.generalFloor);
  const candidates = scored.filter((u) => u !== seed && !lacking.has(u.record) && u.matched && (u.relevance >= o.minRelativeRelevance * best || namedProduct(u)));
  while (selected.length < o.maxSentences && candidates.length > 0) {
    // Another record is quoted only for a part of the question the chosen units leave open.
    for (let i = candidates.length - 1; i >= 0; i--) {
      const c = candidates[i] as ScoredUnit;
      const chosenRecord = selected.some((s) => s.record === c.record);
      if (!chosenRecord && newCoverage(c, selected, newWeights, total) < o.minNewCoverage && !namedProduct(c)) candidates.splice(i, 1);
      // A chosen product's name, identifiers, category and price are never quoted (its reply opens
      // with its name and price): as further units they would only take the places of its fields.
      else if (chosenRecord && records[c.record]?.kind === 'product' && isUnquotedLine(c.unit.text)) candidates.splice(i, 1);
    }
    // What the question still leaves open comes before more of what is already answered: with two
    // products named ("the tamper and the knock box"), the second one's price before the first
    // one's SKU; and the same field of each, undamped by its likeness to the first ("Burrs: 64 mm
    // flat", then "Burrs: 38 mm conical").
    let next: ScoredUnit | undefined;
    for (const c of candidates) if (namedProduct(c) && used + 1 + c.unit.text.length <= o.maxChars && (next === undefined || c.relevance > next.relevance)) next = c;
    next ??= candidates[nextByMmr(candidates, selected, used, best, o)];
    if (!next) break;
    selected.push(next);
    used += 1 + next.unit.text.length;
    candidates.splice(candidates.indexOf(next), 1);
  }
  return answered(selected);
}
