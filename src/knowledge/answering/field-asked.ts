/**
 * A product asked for a value its record does not give, that another product gives in a field the
 * named one has too: "Can I use the copper kettle on induction?" of a catalogue where the stainless
 * kettle's "Hob compatibility" is "gas, electric and induction" and the copper kettle's is "gas and
 * electric". Its own field is the answer, which the visitor reads as a no ("Copper Gooseneck
 * Pour-Over Kettle 0.6 L (£74) — hob compatibility: gas and electric"); without it the question was
 * refused, as one asking what no record holds ("Does the E64 come with a warranty?") still is.
 */
import type { QueryWord } from '../retrieval/query-expansion.js';
import { isUnquotedLabel, labelled } from './product-lines.js';
import type { RetrievedRecord } from './types.js';
import type { ScoredUnit } from './unit-scores.js';
import { unitTermCount } from './units.js';

/** A word met in another product's field by its own form, not by a related word's or a slip's credit. */
const MIN_CREDIT = 0.8;

/** A field of a product's specifications: not its free-text description, nor its price or stock. */
function specLine(text: string): { label: string } | undefined {
  const line = labelled(text);
  return line === undefined || line.label === 'description' || isUnquotedLabel(line.label) ? undefined : line;
}

/**
 * The seed product's unit whose field another product's same field answers the question's word
 * with, or undefined. A word counts when it weighs, is not of the seed's name, and is written in
 * the other product's field (its label or value), not only in that product's name.
 */
export function fieldAskedOfNamed(seed: ScoredUnit, scored: readonly ScoredUnit[], records: readonly RetrievedRecord[], words: readonly QueryWord[], weights: readonly number[]): ScoredUnit | undefined {
  const name = seed.unit.context;
  const own = new Map<string, ScoredUnit>();
  for (const u of scored) {
    if (u.record !== seed.record) continue;
    const line = specLine(u.unit.text);
    if (line !== undefined) own.set(line.label, u);
  }
  if (own.size === 0) return undefined;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as QueryWord;
    if ((weights[i] as number) <= 0 || word.matches.some((m) => name.has(m.term))) continue;
    for (const u of scored) {
      if (u.record === seed.record || records[u.record]?.kind !== 'product') continue;
      if (!word.matches.some((m) => m.credit >= MIN_CREDIT && unitTermCount(u.unit, m.term) > 0)) continue;
      const line = specLine(u.unit.text);
      const mine = line === undefined ? undefined : own.get(line.label);
      if (mine !== undefined) return mine;
    }
  }
  return undefined;
}
