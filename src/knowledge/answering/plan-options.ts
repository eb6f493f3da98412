/**
 * The extractive answerer's options: what a caller may set, their defaults (chosen on the
 * evaluation's tuning half, docs/quality.md), and what the answerer needs of an index.
 */
import type { ExpandedQuery } from '../retrieval/query-expansion.js';
import type { RecordUnitsCache } from './units.js';

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
