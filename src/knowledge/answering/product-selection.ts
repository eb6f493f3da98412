/**
 * The answer plan's rules for products: a product asked what its record lacks, another product the
 * question names beside the chosen one, the cheapest, dearest, lightest or biggest of a kind, and
 * the products of a kind a question about the range lists.
 */
import { isAnswerTypeTerm } from '../language/answer-types.js';
import { commonRank, generalInformativeness } from '../language/common-words.js';
import type { OrderDirection, OrderedBy } from '../language/product-order.js';
import { idf as bm25Idf } from '../retrieval/bm25.js';
import type { QueryWord } from '../retrieval/query-expansion.js';
import type { ResolvedOptions, TermStats } from './plan-options.js';
import { type KindNaming, MIN_NAMING_CREDIT } from './product-kinds.js';
import { capacityOf, priceOf, weightOf } from './product-lines.js';
import type { RetrievedRecord } from './types.js';
import type { ScoredUnit } from './unit-scores.js';
import type { RecordUnits } from './units.js';

/**
 * Whether the seed is a product that the question names but asks something of that its record
 * does not hold: the words outside the product's name (its title) weigh at least `minShare` of
 * the question, and no unit of the record covers any of them. A product's name is most of a short
 * question's weight, so without this "What warranty do you give on the Lintel Duo?" is answered
 * with the Lintel Duo's name and price. Words that weigh nothing (ordinary words the records do
 * not use: "heavy", "good") do not count: "How heavy is the E48?" still lists its fields.
 */
export function asksWhatProductLacks(seed: ScoredUnit, scored: readonly ScoredUnit[], records: readonly RetrievedRecord[], words: readonly QueryWord[], weights: readonly number[], total: number, minShare: number): boolean {
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
export function namesProduct(u: ScoredUnit, chosen: readonly ScoredUnit[], words: readonly QueryWord[], stats: TermStats, generalFloor: number): boolean {
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
export function byOrder(seed: ScoredUnit, scored: readonly ScoredUnit[], records: readonly RetrievedRecord[], words: readonly QueryWord[], lacking: ReadonlySet<number>, order: OrderDirection, o: ResolvedOptions, valueOf: (record: RetrievedRecord) => number | undefined, names: KindNaming): ScoredUnit {
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
export const ORDER_VALUE: Readonly<Record<OrderedBy, (record: RetrievedRecord) => number | undefined>> = { price: priceOf, weight: weightOf, capacity: capacityOf };

/**
 * For a question about the range ("Do you sell espresso machines?"): of each product whose name
 * holds every word naming the kind (or a word it matches: "machines" / "Machine"), its best unit,
 * in retrieval order. Empty when the question names nothing the records have.
 */
export function rangeProducts(units: readonly RecordUnits[], records: readonly RetrievedRecord[], kindWords: readonly QueryWord[], scored: readonly ScoredUnit[]): ScoredUnit[] {
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
