/**
 * How one content word of a question is matched to a knowledge base's terms: exactly, else by the
 * first kind of match that finds anything (word-forms.ts, word-meanings.ts), in an order that
 * prefers what a word says over what it may be a slip for.
 */
import { type TermMatch, type MatchKind, type Vocabulary, COMPOUNDING, SPELLING_CREDIT, mergeMatches } from './term-matches.js';
import { variantMatches, superlativeMatches, negationMatches, derivationMatches, compoundMatches, withCompoundParts, compoundParts, compoundHeadMatches, spellingMatches, realWordSlips } from './word-forms.js';
import type { Relation } from '../language/related-words.js';
import { relatedMatches, placeMatches, networkMatches, unitMatches, numberMatches, countryAliasMatches } from './word-meanings.js';

/** A number written with digits only ("58", "2024"). */
export const NUMBER_RE = /^\p{N}+$/u;

/** Whether a question word (as typed, normalised) is a number ("58", "2024"). */
export function isNumberWord(surface: string): boolean {
  return NUMBER_RE.test(surface);
}
const HAS_DIGIT_RE = /\p{N}/u;

/** How one content word is matched: its indexed terms, best first, and the kind of match. */
export interface WordMatch {
  matches: TermMatch[];
  via: MatchKind;
  /** For a corrected slip, the word meant: a slip for an ordinary word ("meny") weighs as little as it. */
  meant?: string;
  /** The matches are the words the word is made of ("gutscheincode": "gutschein", "code"), which meet it together (`QueryWord.parts`). */
  parts?: true;
}

/**
 * Matches one content word (`surface` as typed, `term` its stem, `isName` written as a name, or in
 * German, where capitals name nothing, standing where a place is named: after GERMAN_PLACE_WORDS or
 * as the question's only word) to a vocabulary: `matchWord` itself, or a memo of it
 * (`ExpansionMemo`). The answer depends only on the three and the vocabulary; `isName` only decides
 * whether a word may be read as a place.
 */
export type WordMatcher = (surface: string, term: string, isName: boolean) => WordMatch;

/** Relations whose words are matched beside a word's exact match, not only in its place. */
const ALONGSIDE_EXACT: readonly Relation[] = ['attribute', 'has-part'];

/** Matches of one content word, the first kind that finds any. A number ("58", "2024") only matches exactly. */
export function matchWord(vocab: Vocabulary, surface: string, term: string, isName = false): WordMatch {
  if (vocab.docFreq(term) > 0) {
    // A compound the records also write apart ("Versandkosten" / "Der Versand kostet"), the
    // quantity an adjective measures, which a product's fields name ("heavy" → "Weight: 620 g"),
    // and the days a weekend is, which records name instead of it ("Saturdays and Sundays").
    const parts = COMPOUNDING.has(vocab.language) ? compoundParts(vocab, term) : [];
    const attributes = relatedMatches(vocab, surface, ALONGSIDE_EXACT);
    const derived = derivationMatches(vocab, surface);
    const degrees = superlativeMatches(vocab, surface);
    // Its negation ("used" / "unused"), a number's other spelling ("two" / "2"), a country's other
    // names ("USA" / "United States": the records may use both), and a German verb's other forms,
    // which the stemmer keeps apart ("kostet" / "kosten", "liefert" / "liefern").
    const others = [...negationMatches(vocab, surface), ...numberMatches(vocab, surface), ...countryAliasMatches(vocab, surface), ...(vocab.language === 'de' ? variantMatches(vocab, surface) : [])];
    const alike = derived.length > 0 || degrees.length > 0 || others.length > 0 ? [{ term, credit: 1 }, ...parts, ...derived, ...degrees, ...others] : [{ term, credit: 1 }, ...parts];
    return { matches: mergeMatches(alike, attributes), via: 'exact' };
  }
  const numbers = numberMatches(vocab, surface);
  if (numbers.length > 0) return { matches: numbers, via: 'variant' };
  if (HAS_DIGIT_RE.test(surface)) return { matches: [], via: 'none' };
  const networks = networkMatches(vocab, surface);
  if (networks.length > 0) return { matches: networks, via: 'related' };
  const units = unitMatches(vocab, surface);
  if (units.length > 0) return { matches: units, via: 'variant' };
  // A place the records do not name is matched to where it is before it is taken for a variant or a slip ("Wien" is not "wie").
  const places = placeMatches(vocab, surface, isName);
  if (places.length > 0) return { matches: places, via: 'related' };
  const derived = [...derivationMatches(vocab, surface), ...superlativeMatches(vocab, surface), ...negationMatches(vocab, surface)];
  const variants = derived.length > 0 ? mergeMatches(variantMatches(vocab, surface), derived) : variantMatches(vocab, surface);
  if (variants.length > 0) return { matches: withCompoundParts(vocab, variants), via: 'variant' };
  const compounds = compoundMatches(vocab, surface, term);
  if (compounds.matches.length > 0) return { matches: compounds.matches, via: 'compound', ...(compounds.parts ? { parts: true as const } : {}) };
  const spelled = spellingMatches(vocab, surface);
  if (spelled.meant !== undefined) {
    // The word meant brings what it brings when typed right: "waterprof" meets "Water resistance"
    // as "waterproof" does, "heavvy" a product's "Weight", for a correction's credit.
    const attributes = relatedMatches(vocab, spelled.meant, ALONGSIDE_EXACT).map((m) => ({ term: m.term, credit: m.credit * SPELLING_CREDIT }));
    const matches = withCompoundParts(vocab, spelled.matches);
    return { matches: attributes.length > 0 ? mergeMatches(matches, attributes) : matches, via: 'spelling', meant: spelled.meant };
  }
  const head = compoundHeadMatches(vocab, surface);
  if (head.length > 0) return { matches: head, via: 'compound' };
  const related = relatedMatches(vocab, surface);
  // An ordinary word may be a slip for one the knowledge base uses ("trail" for "trial", "loose"
  // for "lose"): such a match counts for less than a correction of a non-word.
  const slips = realWordSlips(vocab, surface);
  if (slips.length > 0) return { matches: mergeMatches(slips, related), via: 'spelling' };
  if (related.length > 0) return { matches: related, via: 'related' };
  return { matches: [], via: 'none' };
}
