/**
 * A question word met by its form where the knowledge base does not use it as typed: a
 * morphological variant ("deliver" ~ "delivery", "pay" ~ "payment"), an English superlative
 * ("warm" ~ "warmest"), a German or French form no ending links ("Rückgabe" ~ "zurückgeben",
 * "vient" ~ "viennent"), part of a compound ("card" in "Mastercard", "Lieferzeit" = "Liefer" +
 * "Zeit", "Verlängerungskabel" a "Kabel"), or a misspelling of a word the knowledge base uses
 * ("shippping", "warrenty"; only words that are not ordinary words of the language).
 */
import { frenchRelatives } from '../language/french-verbs.js';
import { germanRelatives } from '../language/german-derivations.js';
import { commonRankOfForm, hasCommonWords } from '../language/common-words.js';
import { isDictionaryWord } from '../language/related-words.js';
import { STOP_WORDS_BY_LANGUAGE } from '../language/stopwords.js';
import { isTypingSlip } from '../language/typing-slips.js';
import { type TermMatch, type Vocabulary, VARIANT_CREDIT, SIBLING_CREDIT, COMPOUND_CREDIT, SPELLING_CREDIT, REAL_WORD_SLIP_CREDIT, MIN_PART, present, COMPOUNDING, COMPOUND_HEAD_CREDIT, compoundsEndingWith, mergeMatches, RELATED_CREDIT } from './term-matches.js';

/** Endings that turn a word into a close relative (English, German, French, Spanish, Italian, Dutch, Portuguese). */
const VARIANT_SUFFIXES = new Set(
  `s es ed d ing er ers ery eries y ies ment ments al ation ations ion ions ly ness ance ence able ible ive
   e en n ung ungen et ete eten te ten ern
   ee ees ez ent ant ons aient ait ais ai erai eront tion tions
   ado ada ados adas ar ir ando ción ciones
   are ato ata ati ate`
    .split(/\s+/)
    .filter((x) => x.length > 0),
);

/**
 * Endings of one language only: the "-t", "-st" of German and Dutch verbs ("montiert" ~ "montieren",
 * "liefert" ~ "Lieferung", "levert" ~ "leveren"). In English a final "t" makes other words ("heart"
 * is not "hearing", "paint" not "pains").
 */
const LANGUAGE_VARIANT_SUFFIXES: Readonly<Record<string, ReadonlySet<string>>> = { de: new Set(['t', 'st', 'est']), nl: new Set(['t']) };

function isVariantSuffix(ending: string, language: string): boolean {
  return VARIANT_SUFFIXES.has(ending) || LANGUAGE_VARIANT_SUFFIXES[language]?.has(ending) === true;
}
/** A shared stem must be this long: "pay" + "ment" / "pay" + "ing" is a variant, "con" + "tent" / "con" + "ing" would not be. */
const MIN_SIBLING_STEM = 4;
/** Readings of one misspelt word kept at most. */
const MAX_SPELLINGS = 3;

export function variantMatches(vocab: Vocabulary, surface: string): TermMatch[] {
  if (surface.length < 3) return [];
  const out = new Map<string, number>();
  // The knowledge base's word is the question's plus an ending ("pay" → "payment").
  // A function word is nobody's variant ("Wien" is not "wie" + n).
  const stops = STOP_WORDS_BY_LANGUAGE[vocab.language];
  for (const v of vocab.surfacesWithPrefix(surface, 64)) {
    if (v !== surface && isVariantSuffix(v.slice(surface.length), vocab.language) && !stops?.has(v)) {
      const t = vocab.termOfSurface(v);
      if (present(vocab, t)) out.set(t, VARIANT_CREDIT);
    }
  }
  // The question's word is the knowledge base's plus an ending ("deliveries" → "delivery").
  for (let k = surface.length - 1; k >= 3; k--) {
    if (!isVariantSuffix(surface.slice(k), vocab.language) || stops?.has(surface.slice(0, k))) continue;
    const t = vocab.termOfSurface(surface.slice(0, k));
    if (present(vocab, t)) out.set(t, VARIANT_CREDIT);
  }
  if (out.size > 0) return [...out].map(([term, credit]) => ({ term, credit }));
  // Both are a shared stem plus an ending ("Lieferung" ~ "liefern", "refundable" ~ "refunds").
  for (let k = surface.length - 1; k >= MIN_SIBLING_STEM; k--) {
    const stem = surface.slice(0, k);
    if (!isVariantSuffix(surface.slice(k), vocab.language) || stops?.has(stem)) continue;
    for (const v of vocab.surfacesWithPrefix(stem, 64)) {
      if (v === surface || !isVariantSuffix(v.slice(k), vocab.language) || stops?.has(v)) continue;
      const t = vocab.termOfSurface(v);
      if (present(vocab, t) && !out.has(t)) out.set(t, SIBLING_CREDIT);
    }
  }
  return [...out].map(([term, credit]) => ({ term, credit }));
}

const NO_FORMS: readonly string[] = [];

/** A vowel, then one consonant that doubles before "-est" ("big" → "biggest", "hot" → "hottest"; not "w", "x", "y"). */
const DOUBLING_END_RE = /(?:^|[^aeiou])[aeiou]([bdfglmnprt])$/;

/**
 * An English adjective's superlative and the adjective of a superlative ("warm" / "warmest",
 * "large" / "largest", "heavy" / "heaviest", "big" / "biggest"), which the Snowball stemmer keeps
 * apart: records praise with superlatives ("Our warmest bag", "our brightest headtorch"), and
 * visitors ask with the plain adjective ("How warm is the Hollin?").
 */
function superlativeForms(surface: string): string[] {
  if (surface.length < 3 || !/^[a-z]+$/.test(surface)) return [];
  if (surface.endsWith('est') && surface.length >= 6) {
    const stem = surface.slice(0, -3);
    const out = [stem, `${stem}e`];
    if (stem.endsWith('i')) out.push(`${stem.slice(0, -1)}y`);
    if (stem.length >= 3 && stem.at(-1) === stem.at(-2)) out.push(stem.slice(0, -1));
    return out;
  }
  if (surface.endsWith('e')) return [`${surface}st`];
  if (/[^aeiou]y$/.test(surface)) return [`${surface.slice(0, -1)}iest`];
  const doubled = DOUBLING_END_RE.exec(surface);
  return doubled ? [`${surface}est`, `${surface}${doubled[1]}est`] : [`${surface}est`];
}

/** The superlative or the adjective of an English word, as the knowledge base writes it, at a variant's credit. */
export function superlativeMatches(vocab: Vocabulary, surface: string): TermMatch[] {
  if (vocab.language !== 'en') return [];
  const out: TermMatch[] = [];
  for (const form of superlativeForms(surface)) {
    const t = vocab.termOfSurface(form);
    if (present(vocab, t) && !out.some((m) => m.term === t)) out.push({ term: t, credit: VARIANT_CREDIT });
  }
  return out;
}

/** The prefix that negates a word, per language ("unused", "unbenutzt", "ongebruikt"), and the fewest letters of the word it negates. */
const NEGATING_PREFIX: Readonly<Record<string, { prefix: string; minWord: number }>> = {
  en: { prefix: 'un', minWord: 4 },
  // Five letters: "Unfall" (accident) is no negated "Fall".
  de: { prefix: 'un', minWord: 5 },
  nl: { prefix: 'on', minWord: 5 },
};

/**
 * The word a negating prefix makes of this one, or takes off it ("used" / "unused", "benutzt" /
 * "unbenutzt"), as the knowledge base writes it or in another form, at a synonym's credit: a record that says only
 * "unused" items can be returned answers "Can I return a used kettle?".
 */
export function negationMatches(vocab: Vocabulary, surface: string): TermMatch[] {
  const negating = NEGATING_PREFIX[vocab.language];
  if (negating === undefined) return [];
  const { prefix, minWord } = negating;
  const other = surface.startsWith(prefix) ? surface.slice(prefix.length) : `${prefix}${surface}`;
  if (Math.min(surface.length, other.length) < minWord) return [];
  const t = vocab.termOfSurface(other);
  if (present(vocab, t)) return [{ term: t, credit: RELATED_CREDIT.synonym }];
  // In another form ("pasteurisiert" / "unpasteurisierter"), looked for only where some word of the
  // knowledge base starts like it: most words have no negation there, and this runs for every word.
  if (vocab.surfacesWithPrefix(other.slice(0, Math.max(minWord, other.length - 3)), 1).length === 0) return [];
  return variantMatches(vocab, other).map((m) => ({ term: m.term, credit: Math.min(m.credit, RELATED_CREDIT.synonym) }));
}

/**
 * A German word's other forms that no ending links ("Rückgabe" / "zurückgeben", "zurückzugeben" /
 * "zurückgeben": language/german-derivations.ts), and a French irregular verb's ("vient" /
 * "viennent": language/french-verbs.ts), as the knowledge base writes them, at a sibling's credit.
 */
export function derivationMatches(vocab: Vocabulary, surface: string): TermMatch[] {
  const relatives = vocab.language === 'de' ? germanRelatives(surface) : vocab.language === 'fr' ? frenchRelatives(surface) : NO_FORMS;
  if (relatives.length === 0) return [];
  const out = new Map<string, number>();
  for (const form of relatives) {
    const t = vocab.termOfSurface(form);
    if (present(vocab, t)) out.set(t, SIBLING_CREDIT);
    else for (const m of variantMatches(vocab, form)) if (!out.has(m.term)) out.set(m.term, Math.min(m.credit, SIBLING_CREDIT));
  }
  return [...out].map(([term, credit]) => ({ term, credit }));
}

/** A word met as part of longer words, or as the words it is made of (`parts`: "gutscheincode" = "gutschein" + "code"). */
export interface CompoundMatch {
  matches: TermMatch[];
  parts?: true;
}

export function compoundMatches(vocab: Vocabulary, surface: string, term: string): CompoundMatch {
  // In German and Dutch also as written, where the stemmer cuts the longer word elsewhere
  // ("Tiere" → "tier", but "Haustiere" → "hausti"; "Mäher" → "mah", too short to look for).
  const asWritten = COMPOUNDING.has(vocab.language) && surface.length > MIN_PART;
  if (term.length < MIN_PART && !asWritten) return { matches: [] };
  const out = new Map<string, number>();
  // The question's word ends a longer word of the knowledge base ("card" in "mastercard").
  if (term.length >= MIN_PART) for (const t of vocab.termsWithSuffix(term, 16)) if (t.length >= term.length + 3) out.set(t, COMPOUND_CREDIT);
  if (asWritten) for (const t of compoundsEndingWith(vocab, surface)) out.set(t, COMPOUND_CREDIT);
  // A long question word starts a longer word ("versand" in "versandkosten").
  if (term.length >= 5) {
    for (const v of vocab.surfacesWithPrefix(term, 16)) {
      const t = vocab.termOfSurface(v);
      if (present(vocab, t) && v.length >= term.length + 3) out.set(t, COMPOUND_CREDIT);
    }
  }
  // The question's word is two words of the knowledge base ("lieferzeit" = "liefer" + "zeit").
  if (out.size === 0) {
    const parts = compoundParts(vocab, term);
    if (parts.length > 0) return { matches: parts, parts: true };
  }
  return { matches: [...out].map(([t, credit]) => ({ term: t, credit })) };
}

/**
 * A compound's reading also matches its words written apart, as an exact compound does
 * ("versandkostn" → "versandkost", and "Der Versand … kostet").
 */
export function withCompoundParts(vocab: Vocabulary, matches: TermMatch[]): TermMatch[] {
  if (!COMPOUNDING.has(vocab.language)) return matches;
  const parts = matches.flatMap((m) => compoundParts(vocab, m.term).map((part) => ({ term: part.term, credit: Math.min(part.credit, m.credit) })));
  return parts.length === 0 ? matches : mergeMatches(matches, parts);
}

/**
 * The two words of the knowledge base a compound is made of, or none: "lieferzeit" = "liefer" +
 * "zeit", possibly with a linking "s" ("versandsart"), the second perhaps with an ending the
 * records give it ("versandkost" = "versand" + "kostet").
 */
export function compoundParts(vocab: Vocabulary, term: string): TermMatch[] {
  // In German and Dutch the tail may be a three-letter stem ("gutscheincod" = "gutschein" + "cod",
  // of "Code"); not in English, whose short words make false compounds ("without" = "with" + "out").
  const minTail = COMPOUNDING.has(vocab.language) ? MIN_PART - 1 : MIN_PART;
  if (term.length < MIN_PART + minTail) return [];
  for (let i = MIN_PART; i <= term.length - minTail; i++) {
    const head = term.slice(0, i);
    let tail = term.slice(i);
    const headTerm = vocab.docFreq(head) > 0 ? head : vocab.termOfSurface(head);
    if (!present(vocab, headTerm)) continue;
    if (vocab.docFreq(tail) === 0 && tail.startsWith('s') && vocab.docFreq(tail.slice(1)) > 0) tail = tail.slice(1);
    if (tail.length < MIN_PART - 1) continue;
    // The tail as the records write it alone, perhaps with an ending ("kost" → "kostet").
    const tailTerms = vocab.docFreq(tail) > 0 ? [tail] : present(vocab, vocab.termOfSurface(tail)) ? [vocab.termOfSurface(tail) as string] : variantMatches(vocab, tail).map((m) => m.term);
    if (tailTerms.length > 0) return [headTerm, ...tailTerms].map((t) => ({ term: t, credit: COMPOUND_CREDIT }));
  }
  return [];
}

/**
 * The last word of a German or Dutch compound, where the records use it and nothing else of the
 * compound: "Verlängerungskabel" is a "Kabel", as every compound is a kind of its last word. The
 * longest such word, at least MIN_PART letters after at least MIN_PART ("Bestellung" is not
 * "be" + "Stellung").
 */
export function compoundHeadMatches(vocab: Vocabulary, surface: string): TermMatch[] {
  if (!COMPOUNDING.has(vocab.language) || surface.length < 2 * MIN_PART) return [];
  for (let i = MIN_PART; i <= surface.length - MIN_PART; i++) {
    const t = vocab.termOfSurface(surface.slice(i));
    if (present(vocab, t)) return [{ term: t, credit: COMPOUND_HEAD_CREDIT }];
  }
  return [];
}

/** Readings of a misspelt word, and the word of the knowledge base it most likely stands for. */
interface Spelling {
  matches: TermMatch[];
  /** The surface word of the most used reading ("meny" → "many"). */
  meant?: string;
}

export function spellingMatches(vocab: Vocabulary, surface: string): Spelling {
  // Only words of some length that are not ordinary words of the language: "retrun", not "form".
  if (surface.length < 4 || !/^[a-z]+$/.test(surface)) return { matches: [] };
  // Nor another form of an ordinary word ("cassée" of "cassé" is no slip for "passe").
  if (hasCommonWords(vocab.language) && commonRankOfForm(surface, vocab.language) !== undefined) return { matches: [] };
  // French "-ique" as English spells it or as it sounds ("plastic", "plastik" for "plastique"): three edits, one slip.
  if (vocab.language === 'fr' && /[^aeiou]i[ck]$/.test(surface)) {
    const meant = `${surface.slice(0, -1)}que`;
    const t = vocab.termOfSurface(meant);
    if (present(vocab, t)) return { matches: [{ term: t, credit: SPELLING_CREDIT }], meant };
  }
  // A four-letter word of the dictionary, rarer than the common words ("bake", "flee"), is taken
  // only for a form of the same word ("flee" → "fled"), not for another word ("bake" → "bike"):
  // four letters leave many real words one edit apart.
  const sameWordOnly = surface.length === 4 && isDictionaryWord(surface, vocab.language);
  // Every word one edit away is a reading of the slip ("startr": "start" or "starter"), the most
  // frequent first; a few at most.
  const found = new Map<string, { df: number; surface: string }>();
  for (const v of vocab.surfacesWithinOneEdit(surface)) {
    if (sameWordOnly && !v.startsWith(surface.slice(0, 3))) continue;
    const t = vocab.termOfSurface(v);
    const df = t === undefined ? 0 : vocab.docFreq(t);
    if (t !== undefined && df > 0 && df > (found.get(t)?.df ?? 0)) found.set(t, { df, surface: v });
  }
  const readings = [...found].sort((a, b) => b[1].df - a[1].df).slice(0, MAX_SPELLINGS);
  const matches = readings.map(([term]) => ({ term, credit: SPELLING_CREDIT }));
  const first = readings[0];
  return first === undefined ? { matches } : { matches, meant: first[1].surface };
}

export function realWordSlips(vocab: Vocabulary, surface: string): TermMatch[] {
  if (surface.length < 5 || !/^[a-z]+$/.test(surface)) return [];
  const out: TermMatch[] = [];
  for (const v of vocab.surfacesWithinOneEdit(surface)) {
    // Only what a hand does ("trail" / "trial"), not any word one edit away ("fille" / "ville").
    if (!isTypingSlip(surface, v)) continue;
    const t = vocab.termOfSurface(v);
    if (present(vocab, t) && !out.some((m) => m.term === t)) out.push({ term: t, credit: REAL_WORD_SLIP_CREDIT });
  }
  return out;
}
