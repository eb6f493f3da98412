/**
 * What a question word's matches are made of (query expansion, query-expansion.ts): an indexed term
 * with the credit a match of it earns, the vocabulary terms are looked up in, the credit of each
 * kind of match, and the look-up of names (a name of several words matches when the knowledge base
 * has all of its words).
 */
import type { Relation } from '../language/related-words.js';
import { analyzeWords } from './tokenize.js';

export interface TermMatch {
  /** An indexed term. */
  term: string;
  /** How much a match of `term` counts for the word, 0…1. */
  credit: number;
}

export type MatchKind = 'exact' | 'variant' | 'compound' | 'spelling' | 'related' | 'none';

/** What expansion needs of an index. */
export interface Vocabulary {
  readonly language: string;
  docFreq(term: string): number;
  /** The indexed term of a surface word, when the knowledge base uses that word. */
  termOfSurface(surface: string): string | undefined;
  /** Surface words starting with `prefix` (at most `limit`). */
  surfacesWithPrefix(prefix: string, limit: number): string[];
  /** Surface words ending with `suffix` (at most `limit`). */
  surfacesWithSuffix(suffix: string, limit: number): string[];
  /** Indexed terms ending with `suffix` (at most `limit`). */
  termsWithSuffix(suffix: string, limit: number): string[];
  /** Surface words within one edit (insertion, deletion, substitution, transposition) of `word`. */
  surfacesWithinOneEdit(word: string): string[];
}

/** A word and its variant ("pay" / "payment"), a unit's name and its symbol, a number and its word. */
export const VARIANT_CREDIT = 0.9;
/** Two words that share a stem with different endings are a little further apart than a word and its variant. */
export const SIBLING_CREDIT = 0.8;
/** A word and a compound it is part of ("card" / "Mastercard"). */
export const COMPOUND_CREDIT = 0.6;
/** A misspelt word and the word of the knowledge base it stands for ("warrenty" / "warranty"). */
export const SPELLING_CREDIT = 0.85;
/** An ordinary word and one of the knowledge base it may be a slip for ("trail" / "trial"). */
export const REAL_WORD_SLIP_CREDIT = 0.6;
/** Credit of a word related in meaning, by relation: a synonym or the place a named place is in counts more than a broader word. */
export const RELATED_CREDIT: Readonly<Record<Relation, number>> = { synonym: 0.7, attribute: 0.7, 'part-of': 0.7, 'has-part': 0.7, broader: 0.5 };
/** A compound part or prefix must be this long to count. */
export const MIN_PART = 4;

/** Whether `term` is one the knowledge base uses. */
export function present(vocab: Vocabulary, term: string | undefined): term is string {
  return term !== undefined && vocab.docFreq(term) > 0;
}

/**
 * The terms of the knowledge base's words that end with `surface` and are at least three letters
 * longer: the compounds it ends ("breite" → "schnittbreite"), as written, where the stemmer cuts a
 * compound elsewhere than its last word.
 */
export function compoundsEndingWith(vocab: Vocabulary, surface: string): string[] {
  const out: string[] = [];
  for (const v of vocab.surfacesWithSuffix(surface, 16)) {
    const t = vocab.termOfSurface(v);
    if (present(vocab, t) && v.length >= surface.length + 3) out.push(t);
  }
  return out;
}

/** Languages that write compounds as one word. */
export const COMPOUNDING = new Set(['de', 'nl']);

/** A compound met only by its last word is a kind of that thing, as a broader word is. */
export const COMPOUND_HEAD_CREDIT = 0.5;

/** Both lists' terms, each with its higher credit, best first. */
export function mergeMatches(a: readonly TermMatch[], b: readonly TermMatch[]): TermMatch[] {
  const out = new Map<string, number>();
  for (const m of [...a, ...b]) if ((out.get(m.term) ?? 0) < m.credit) out.set(m.term, m.credit);
  return [...out].map(([term, credit]) => ({ term, credit })).sort((x, y) => y.credit - x.credit);
}

/** Indexed terms of the names in `names` (a name of several words matches when the knowledge base has all of them), at `credit`. */
export function namesMatches(vocab: Vocabulary, names: readonly string[], credit: number, skip?: readonly string[]): TermMatch[] {
  const out = new Map<string, number>();
  for (const name of names) {
    if (skip?.includes(name)) continue;
    const { terms, stops } = analyzeWords(name, vocab.language, 'query');
    const content = terms.filter((_, i) => !stops[i]);
    if (content.length === 0 || content.some((t) => vocab.docFreq(t) === 0)) continue;
    for (const t of content) out.set(t, credit);
  }
  return [...out].map(([term, credit]) => ({ term, credit }));
}

/**
 * The terms of the one name of `names` that most records use (at `credit`): a card stands for any
 * network, and a record that lists several ("Visa, Mastercard and American Express") is not a
 * better answer to "which cards?" for each of them, as it would be if every network were searched.
 */
export function commonestName(vocab: Vocabulary, names: readonly string[], credit: number): TermMatch[] {
  let best: TermMatch[] = [];
  let bestDf = 0;
  for (const name of names) {
    const found = namesMatches(vocab, [name], credit);
    let df = Number.POSITIVE_INFINITY;
    for (const m of found) df = Math.min(df, vocab.docFreq(m.term));
    if (found.length > 0 && df > bestDf) {
      best = found;
      bestDf = df;
    }
  }
  return best;
}
