/**
 * Products by kind: which words of a question name a product's kind (a word of its name or its
 * category line), and the reading of a question that asks the same of each product of a kind
 * ("How much do both grinders weigh?", "eure beiden Astscheren jeweils", language/each-question.ts).
 */
import type { QueryWord } from '../retrieval/query-expansion.js';
import type { ScoredUnit } from './unit-scores.js';
import { isUnquotedLabel, labelled } from './product-lines.js';
import type { RetrievedRecord } from './types.js';
import { unitTermCount } from './units.js';

/**
 * A question's word names a word of a product's name by a match at least this good: the word, a
 * form of it, a slip for it or a synonym; not a part of it ("Mäher" is in "Spindelmäher" and in
 * "Rasenmäher" alike) nor a broader word.
 */
export const MIN_NAMING_CREDIT = 0.7;

/** Whether a question word names the kind of a unit's product: a word of its name (every unit's context) or of its category line. */
export type KindNaming = (u: ScoredUnit, word: QueryWord) => boolean;

/**
 * `KindNaming` over the products among `scored` ("Spindelmäher 33" is in "Category: Rasenmäher"):
 * made once per answer, for every product rule that asks it (answering/plan.ts, product-selection.ts).
 */
export function kindNaming(scored: readonly ScoredUnit[], records: readonly RetrievedRecord[]): KindNaming {
  const categories = new Map<number, ScoredUnit>();
  for (const u of scored) if (records[u.record]?.kind === 'product' && labelled(u.unit.text)?.label === 'category') categories.set(u.record, u);
  return (u, word) => {
    const category = categories.get(u.record);
    return word.matches.some((m) => m.credit >= MIN_NAMING_CREDIT && (u.unit.context.has(m.term) || (category !== undefined && unitTermCount(category.unit, m.term) > 0)));
  };
}

/** Whether the unit's own text holds a match of `word` (every unit of a record earns some coverage for its other lines). */
function holds(u: ScoredUnit, word: QueryWord): boolean {
  return word.matches.some((m) => unitTermCount(u.unit, m.term) > 0);
}

/**
 * For a question that asks the same of each product of a kind: the kind is what the question's
 * words name of the seed product's name or category ("grinders" of "Fellside E48 Electric
 * Grinder"), and each retrieved product whose name or category holds all of it answers with its
 * most relevant unit that holds something else the question asks (the field asked for: "Category:
 * Milk jugs" is no capacity), the seed first, then in retrieval order, within the answer's budget.
 * Undefined, and the question is answered as any other, when the question asks nothing beyond the
 * kind, or fewer than two products of the kind hold what it asks.
 */
export function eachOfKind(seed: ScoredUnit, scored: readonly ScoredUnit[], records: readonly RetrievedRecord[], words: readonly QueryWord[], weights: readonly number[], lacking: ReadonlySet<number>, maxChars: number, names: KindNaming): ScoredUnit[] | undefined {
  const kind: QueryWord[] = [];
  const asked: QueryWord[] = [];
  for (const [i, w] of words.entries()) {
    if (names(seed, w)) kind.push(w);
    else if ((weights[i] as number) > 0) asked.push(w);
  }
  if (kind.length === 0 || asked.length === 0) return undefined;
  // Per product, its best field that holds something asked ("Schnittstärke: bis 35 mm"), else its
  // best unit that does: the same field of each reads as the comparison asked for, where a
  // description that repeats the question's words ("für hohe Äste und dicke Triebe") would not.
  const best = new Map<number, ScoredUnit>();
  const bestField = new Map<number, ScoredUnit>();
  for (const u of scored) {
    if (lacking.has(u.record) || records[u.record]?.kind !== 'product' || !kind.every((w) => names(u, w)) || !asked.some((w) => holds(u, w))) continue;
    const known = best.get(u.record);
    if (known === undefined || u.relevance > known.relevance) best.set(u.record, u);
    const label = labelled(u.unit.text)?.label;
    const field = bestField.get(u.record);
    if (label !== undefined && label !== 'description' && !isUnquotedLabel(label) && (field === undefined || u.relevance > field.relevance)) bestField.set(u.record, u);
  }
  for (const [record, field] of bestField) best.set(record, field);
  if (best.size < 2 || !best.has(seed.record)) return undefined;
  const order = [seed.record, ...[...best.keys()].filter((r) => r !== seed.record).sort((a, b) => a - b)];
  const selected: ScoredUnit[] = [];
  let used = -1;
  for (const r of order) {
    const u = best.get(r) as ScoredUnit;
    if (selected.length > 0 && used + 1 + u.unit.text.length > maxChars) break;
    selected.push(u);
    used += 1 + u.unit.text.length;
  }
  return selected.length >= 2 ? selected : undefined;
}
