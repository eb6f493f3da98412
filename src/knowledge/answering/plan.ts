/**
 * Decides what an extractive answer says: scores every unit (sentence, or a short Q&A answer)
 * of the top records against the query (unit-scores.ts), checks that the best one covers the query
 * and that the answer-or-refuse model (confidence.ts) and the rules here let it answer, applies
 * the product rules (product-selection.ts), and picks up to a few units with Maximal Marginal
 * Relevance (Carbonell & Goldstein 1998) so the answer is relevant without repeating itself.
 * The options and their defaults are in plan-options.ts.
 */
import { isAnswerTypeTerm } from '../language/answer-types.js';
import { KnowledgeIndex } from '../retrieval/knowledge-index.js';
import { isNumberWord } from '../retrieval/match-word.js';
import type { QueryWord } from '../retrieval/query-expansion.js';
import { withAcronymsSpelledOut } from './acronyms.js';
import { confidenceOf, matchedRareWords } from './confidence.js';
import { fieldAskedOfNamed } from './field-asked.js';
import { fittingProducts, isThirdKind } from './fitting-products.js';
import { placesAboutOtherCountries, placesLeftOut } from './other-places.js';
import { meetsOnlyPlaces } from './place-only.js';
import { type ExtractiveOptions, type ResolvedOptions, resolveOptions, type TermStats } from './plan-options.js';
import { eachOfKind, type KindNaming, kindNaming } from './product-kinds.js';
import { isUnquotedLine } from './product-lines.js';
import { asksWhatProductLacks, byOrder, namesProduct, ORDER_VALUE, rangeProducts } from './product-selection.js';
import type { RetrievedRecord } from './types.js';
import { newCoverage, nextByMmr, type ScoredUnit, scoreUnits, wordWeights } from './unit-scores.js';
import { matchedShare, namesUnknownAcronym, unknownNames, withUnknownNames } from './unknown-names.js';
import { type RecordUnits, recordUnits } from './units.js';

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

/** Statistics of the retrieved records alone, when the knowledge base's own are not supplied. */
function localStats(records: readonly RetrievedRecord[]): TermStats {
  return KnowledgeIndex.build(records.map((r) => ({ recordId: r.recordId, title: r.title, text: r.text, sourceName: r.sourceName })));
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
  const scored = scoreUnits(units, records, words, weights, o, elsewhere, stats.language);
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
    if (meetsOnlyPlaces(seed.covers, words)) return refused(coverage, confidence);
    // "Which tamper fits the Lintel One?" is not answered with a portafilter that fits it.
    if (isThirdKind(query, stats.language, seed, scored, records, words, weights, namesOfKinds)) {
      lacking.add(seed.record);
      continue;
    }
    if (!asksWhatProductLacks(seed, scored, records, words, weights, total, o.minAskedShare)) break;
    // "Can I use the copper kettle on induction?": its own "Hob compatibility", which another kettle's names induction in.
    const field = fieldAskedOfNamed(seed, scored, records, words, weights);
    if (field !== undefined) return answered([field]);
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
