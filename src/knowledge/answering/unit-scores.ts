/**
 * How the units of the retrieved records meet a question: each question word's weight, each unit's
 * coverage and relevance (BM25-style, with the record's retrieval score as a prior), and the
 * Maximal Marginal Relevance step (Carbonell & Goldstein 1998) that picks further units without
 * repeating the chosen ones.
 */
import { isAnswerTypeTerm } from '../language/answer-types.js';
import { idf as bm25Idf, DEFAULT_BM25, lengthNorm, saturate } from '../retrieval/bm25.js';
import type { QueryWord } from '../retrieval/query-expansion.js';
import type { ResolvedOptions, TermStats } from './plan-options.js';
import type { RetrievedRecord } from './types.js';
import { askedByRecord, contextHas, type RecordUnits, recordHasTerm, type Unit, unitTermCount } from './units.js';

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

/**
 * How much each question word weighs in coverage: a matched word by its IDF in the knowledge
 * base, damped when it is a common word of the language; a word the knowledge base lacks by its
 * general-language informativeness alone.
 */
export function wordWeights(words: readonly QueryWord[], stats: TermStats, o: ResolvedOptions): number[] {
  const unseen = bm25Idf(stats.size, 0);
  return words.map((w) => {
    if (w.matches.length === 0) return o.unmatchedWeight * unseen * w.general;
    // A kind of answer weighs as its own term, which no record has, whatever words also find it.
    let df = 0;
    if (!isAnswerTypeTerm(w.term)) for (const m of w.matches) df = Math.max(df, stats.docFreq(m.term));
    return bm25Idf(stats.size, df) * (o.generalFloor + (1 - o.generalFloor) * w.general);
  });
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
    if (!w.matches.some((m) => contextHas(u, m.term))) return false;
    topical = true;
  }
  return topical;
}

/**
 * Scores every unit of `units` (one entry per record of `records`, same order), in record then
 * unit order. Plain loops: this runs for every query.
 */
export function scoreUnits(units: readonly RecordUnits[], records: readonly RetrievedRecord[], words: readonly QueryWord[], weights: readonly number[], o: ResolvedOptions, elsewhere: readonly (ReadonlySet<number> | undefined)[] | undefined, language: string): ScoredUnit[] {
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
          const inContext = contextHas(u, m.term);
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
        // A compound met by its parts is met whole where the unit writes them all ("Code" … "Gutschein").
        if (word.parts && best < 1 && word.matches.every((m) => unitTermCount(u, m.term) > 0 || contextHas(u, m.term))) best = 1;
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
export function newCoverage(u: ScoredUnit, chosen: readonly ScoredUnit[], weights: readonly number[], total: number): number {
  let gain = 0;
  for (let i = 0; i < weights.length; i++) {
    let have = 0;
    for (const c of chosen) have = Math.max(have, c.covers[i] as number);
    gain += (weights[i] as number) * Math.max(0, (u.covers[i] as number) - have);
  }
  return gain / (total || 1);
}

/** Index of the best MMR candidate that still fits the budget, or -1. */
export function nextByMmr(candidates: readonly ScoredUnit[], chosen: readonly ScoredUnit[], usedChars: number, best: number, o: ResolvedOptions): number {
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
