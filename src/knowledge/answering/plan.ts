/**
 * Decides what an extractive answer says: scores every unit (sentence, or a short Q&A answer)
 * of the top records against the query, checks that the best one covers the query, and picks
 * up to a few units with Maximal Marginal Relevance (Carbonell & Goldstein 1998) so the answer
 * is relevant without repeating itself.
 */
import { idf as bm25Idf, DEFAULT_BM25, lengthNorm, saturate } from '../retrieval/bm25.js';
import { queryTerms } from '../retrieval/tokenize.js';
import type { RetrievedRecord } from './types.js';
import { recordUnits, type Unit } from './units.js';

export interface ExtractiveOptions {
  /**
   * Document frequencies of the knowledge base (pass its `KnowledgeIndex`). Without them, IDF is
   * estimated from the retrieved records' sentences, which weighs query terms less well.
   */
  stats?: TermStats;
  /** Records considered, from the top of `retrieved`. */
  maxRecords?: number;
  /** Most units (sentences) in an answer. */
  maxSentences?: number;
  /** Character budget of the quoted text (markers excluded); the first unit may be cut to fit. */
  maxChars?: number;
  /** MMR trade-off: 1 = relevance only, 0 = diversity only. */
  lambda?: number;
  /** Share of the query's IDF-weighted content terms the best unit must contain to answer at all. */
  minCoverage?: number;
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
   * Document frequency assumed for a query term the knowledge base does not contain. With 0 an
   * unseen word ("bought", "put") outweighs every known one, and a small knowledge base abstains
   * on ordinary paraphrases; 1 weighs it like the rarest known term.
   */
  unseenDocFreq?: number;
}

/** What the answerer needs of an index's statistics; `KnowledgeIndex` provides it. */
export interface TermStats {
  readonly size: number;
  docFreq(term: string): number;
}

export type ResolvedOptions = Required<Omit<ExtractiveOptions, 'stats'>> & Pick<ExtractiveOptions, 'stats'>;

/** Defaults, calibrated on the evaluation in eval/ (see docs/quality.md), not on single questions. */
export const DEFAULT_EXTRACTIVE_OPTIONS: Readonly<ResolvedOptions> = {
  maxRecords: 5,
  maxSentences: 3,
  maxChars: 600,
  lambda: 0.7,
  minCoverage: 0.5,
  minRelativeRelevance: 0.5,
  priorWeight: 0.3,
  contextWeight: 0.8,
  recordCredit: 0.5,
  unseenDocFreq: 0,
};

export interface ScoredUnit extends Unit {
  /** IDF-weighted share of the query's content terms found in the unit or its context, 0…1 (plus record credit). */
  coverage: number;
  /** Whether the unit itself or its context contains a query term; only such units are quoted. */
  matched: boolean;
  /** Ranking value: BM25-style match blended with the record's retrieval score. */
  relevance: number;
}

export interface AnswerPlan {
  /** Coverage of the best-covering unit; the abstention signal. */
  coverage: number;
  grounded: boolean;
  /** Chosen units in selection order (most relevant first); empty when not grounded. */
  selected: ScoredUnit[];
  /** The records considered (a prefix of `retrieved`). */
  records: RetrievedRecord[];
}

export function resolveOptions(options: ExtractiveOptions = {}): ResolvedOptions {
  const out: ResolvedOptions = { ...DEFAULT_EXTRACTIVE_OPTIONS };
  for (const [k, v] of Object.entries(options)) if (v !== undefined) (out as unknown as Record<string, unknown>)[k] = v;
  return out;
}

/** Statistics over the candidate units when the knowledge base's own are not supplied. */
function localStats(units: readonly Unit[]): TermStats {
  return {
    size: units.length,
    docFreq: (term) => units.reduce((n, u) => n + (u.tf.has(term) || u.context.has(term) ? 1 : 0), 0),
  };
}

function similarity(a: Unit, b: Unit): number {
  if (a.content.size === 0 || b.content.size === 0) return a.text === b.text ? 1 : 0;
  let shared = 0;
  for (const t of a.content) if (b.content.has(t)) shared++;
  return shared / Math.sqrt(a.content.size * b.content.size);
}

function score(units: readonly Unit[], records: readonly RetrievedRecord[], terms: readonly string[], o: ResolvedOptions): ScoredUnit[] {
  const stats = o.stats ?? localStats(units);
  const weights = terms.map((t) => bm25Idf(stats.size, Math.max(stats.docFreq(t), o.unseenDocFreq)));
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const avgLen = units.reduce((a, u) => a + u.len, 0) / Math.max(1, units.length);
  const topScore = Math.max(0, ...records.map((r) => r.score));
  const { k1, b } = DEFAULT_BM25;
  // Terms of each whole record, for the partial credit of a term found elsewhere in the record.
  const recordTerms = records.map(() => new Set<string>());
  for (const u of units) {
    const set = recordTerms[u.record] as Set<string>;
    for (const t of u.tf.keys()) set.add(t);
    for (const t of u.context) set.add(t);
  }
  return units.map((u) => {
    let covered = 0;
    let match = 0;
    let matched = false;
    const norm = lengthNorm(u.len, avgLen, b);
    terms.forEach((t, i) => {
      const w = weights[i] ?? 0;
      const tf = u.tf.get(t) ?? 0;
      const inContext = u.context.has(t);
      if (tf > 0 || inContext) {
        covered += w;
        matched = true;
      } else if (recordTerms[u.record]?.has(t)) covered += o.recordCredit * w;
      // saturate(1) at average length is 1, so an exact match weighs like the context bonus at weight 1.
      match += w * Math.max(saturate(tf / norm, k1), inContext ? o.contextWeight : 0);
    });
    const prior = topScore > 0 ? (records[u.record]?.score ?? 0) / topScore : 0;
    return { ...u, coverage: covered / total, matched, relevance: (1 - o.priorWeight) * (match / total) + o.priorWeight * prior };
  });
}

/** Index of the best MMR candidate that still fits the budget, or -1. */
function nextByMmr(candidates: readonly ScoredUnit[], chosen: readonly ScoredUnit[], usedChars: number, best: number, o: ResolvedOptions): number {
  let pick = -1;
  let pickValue = Number.NEGATIVE_INFINITY;
  candidates.forEach((c, i) => {
    if (usedChars + 1 + c.text.length > o.maxChars) return;
    const redundancy = Math.max(0, ...chosen.map((s) => similarity(c, s)));
    const value = o.lambda * (c.relevance / best) - (1 - o.lambda) * redundancy;
    if (value > pickValue) {
      pickValue = value;
      pick = i;
    }
  });
  return pick;
}

export function planAnswer(query: string, retrieved: readonly RetrievedRecord[], options?: ExtractiveOptions): AnswerPlan {
  const o = resolveOptions(options);
  const records = retrieved.slice(0, Math.max(0, o.maxRecords));
  const terms = queryTerms(query).content;
  // No content terms ("what is it?") leaves nothing to ground an answer on: abstain rather than guess.
  if (records.length === 0 || terms.length === 0) return { coverage: 0, grounded: false, selected: [], records };
  const units = records.flatMap((r, i) => recordUnits(r, i, o.maxChars));
  const scored = score(units, records, terms, o);
  const coverage = Math.max(0, ...scored.map((u) => u.coverage));
  if (coverage <= 0 || coverage < o.minCoverage) return { coverage, grounded: false, selected: [], records };

  // Seed with the most relevant unit among those that cover enough; then MMR over the rest.
  const covering = scored.filter((u) => u.matched && u.coverage >= o.minCoverage);
  if (covering.length === 0) return { coverage, grounded: false, selected: [], records };
  const seed = covering.reduce((a, u) => (u.relevance > a.relevance ? u : a));
  const best = seed.relevance > 0 ? seed.relevance : 1;
  const selected = [seed];
  let used = seed.text.length;
  let candidates = scored.filter((u) => u !== seed && u.matched && u.relevance >= o.minRelativeRelevance * best);
  while (selected.length < o.maxSentences && candidates.length > 0) {
    const i = nextByMmr(candidates, selected, used, best, o);
    const next = candidates[i];
    if (!next) break;
    selected.push(next);
    used += 1 + next.text.length;
    candidates = candidates.filter((_, j) => j !== i);
  }
  return { coverage, grounded: true, selected, records };
}
