/**
 * Meets a visitor's words with the knowledge base's: each content word of a question is matched
 * to the index's terms exactly, as a morphological variant ("deliver" ~ "delivery", "pay" ~
 * "payment"), as part of a compound ("card" in "Mastercard", "Kosten" in "Versandkosten",
 * "Lieferzeit" = "Liefer" + "Zeit"), or as a misspelling of a word the knowledge base uses
 * ("shippping", "warrenty") — spelling is corrected only for words that are not ordinary words of
 * the language. Each word also carries how informative it is in general language, so an ordinary
 * word the records do not use ("long", "things") weighs little and the name of something they
 * never mention ("Mars", "oat") weighs a lot.
 */
import { type AnswerType, ageNames, answerTypeTerm, askedAnswerTypes, colourNames, durationNames, isCurrencyName, lengthNouns, trackingWords } from '../language/answer-types.js';
import { CONTACT_KINDS, type ContactAsk, isContactAsk, kindNames, offerWords } from '../language/contact-details.js';
import { askedOrder, type OrderDirection, type OrderedBy } from '../language/product-order.js';
import { askedOfEach } from '../language/each-question.js';
import { hyphenedNumbersAsDigits, numberOfWord, wordsOfNumber } from '../language/number-words.js';
import { askedRange } from '../language/range-question.js';
import { frenchRelatives } from '../language/french-verbs.js';
import { spellOutChatSpeak, spellOutWont } from '../language/chat-speak.js';
import { acceptWords, asksAboutPaying, cardNetworkNames, cardWords, isCardWord, isTakeWord, networkNames } from '../language/payment-cards.js';
import { countryNames, isCountryName, placeNameLength, placesContaining } from '../language/places.js';
import { unitNames, unitSymbol } from '../language/units.js';
import { germanRelatives } from '../language/german-derivations.js';
import { commonRank, commonWordMisspelt, generalInformativeness, hasCommonWords } from '../language/common-words.js';
import { isDictionaryWord, isOrdinaryDictionaryWord, type Relation, type RelatedWord, relatedWords } from '../language/related-words.js';
import { isMisspeltStopWord, STOP_WORDS_BY_LANGUAGE } from '../language/stopwords.js';
import { analyzeWords, normalizeFor, usAsCountry } from './tokenize.js';

/** How general-language informativeness is scaled (see `generalInformativeness`). */
export interface InformativenessScale {
  commonRank: number;
  rareRank: number;
}

export const DEFAULT_INFORMATIVENESS: InformativenessScale = { commonRank: 1500, rareRank: 10000 };

const NAME_RE = /(?<![.!?]\s{0,3}|^\s*)\b\p{Lu}[\p{Ll}\p{M}]+\b|\b\p{Lu}{2,}\b/gu;

/**
 * Words written as names: capitalised inside a sentence ("ship to Mars"), or in capitals ("CEO").
 * They name things, so they are as informative as rare words whatever their frequency. Not in
 * German, where every noun is capitalised (capitals still count there).
 */
function namesIn(query: string, language: string): Set<string> {
  const out = new Set<string>();
  for (const m of query.matchAll(NAME_RE)) {
    const word = m[0];
    if (language === 'de' && !/^\p{Lu}{2,}$/u.test(word)) continue;
    out.add(normalizeFor(word, language));
  }
  return out;
}

/** Two or more capitalised words in a row inside a sentence ("integrate with Microsoft Teams"). */
const NAME_PHRASE_RE = /(?<![.!?]\s{0,3}|^\s*)(?<![\p{L}\p{N}'’])\p{Lu}[\p{Ll}\p{M}]+(?:[ \t]+\p{Lu}[\p{Ll}\p{M}\p{N}]*)+(?![\p{L}\p{N}])/gu;
/** A question with more capitalised words than this share is written in title case: its capitals name nothing. */
const TITLE_CASE_SHARE = 0.5;

/**
 * Names of several words, each capitalised, inside a sentence ("Microsoft Teams", "Brew Scale
 * Pro"), as normalised words joined with a space: a name that no record writes is something the
 * records never mention, though each of its words may be theirs ("Sign in with Microsoft" and "the
 * Team plan" are not "Microsoft Teams"; answering/unknown-names.ts). Not in German, where
 * every noun is capitalised, nor in a question written in title case.
 */
function namePhrasesIn(query: string, language: string): string[] {
  if (language === 'de') return [];
  const found = query.match(NAME_PHRASE_RE);
  if (found === null) return [];
  const words = query.match(/\p{L}[\p{L}\p{M}]*/gu) ?? [];
  const capitalised = words.filter((w) => /^\p{Lu}/u.test(w)).length;
  if (capitalised > TITLE_CASE_SHARE * words.length) return [];
  return found.map((phrase) => phrase.split(/\s+/u).map((w) => normalizeFor(w, language)).join(' '));
}

export interface TermMatch {
  /** An indexed term. */
  term: string;
  /** How much a match of `term` counts for the word, 0…1. */
  credit: number;
}

export type MatchKind = 'exact' | 'variant' | 'compound' | 'spelling' | 'related' | 'none';

export interface QueryWord {
  /** Normalised, unstemmed form as typed. */
  surface: string;
  /** Stemmed term. */
  term: string;
  /** Informativeness in general language, 0 (very common) … 1 (rare or unknown). */
  general: number;
  /** Indexed terms this word matches, best first; empty when none. */
  matches: readonly TermMatch[];
  via: MatchKind;
  /** The name of several words the word is part of ("microsoft teams"): unmatched when no record writes the name. */
  phrase?: string;
}

export interface ExpandedQuery {
  language: string;
  /** Distinct content words, in question order. */
  words: readonly QueryWord[];
  /** Distinct stop-word terms (what a stop-word-only question searches with). */
  stopTerms: readonly string[];
  /** The question asks for the cheapest or the dearest, or the lightest or the heaviest, of what it names (language/product-order.ts). */
  order?: { direction: OrderDirection; by: OrderedBy };
  /**
   * The question asks which products of a kind the shop has ("Do you sell grinders?",
   * language/range-question.ts): the surfaces of the words naming the kind, and whether a qualifier
   * follows them ("… for the espresso machines").
   */
  range?: { head: ReadonlySet<string>; qualified: boolean };
  /** The question asks the same of each of several things it names ("both grinders", "eure beiden Astscheren jeweils": language/each-question.ts). */
  each?: true;
}

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

const VARIANT_CREDIT = 0.9;
/** Two words that share a stem with different endings are a little further apart than a word and its variant. */
const SIBLING_CREDIT = 0.8;
/** A shared stem must be this long: "pay" + "ment" / "pay" + "ing" is a variant, "con" + "tent" / "con" + "ing" would not be. */
const MIN_SIBLING_STEM = 4;
const COMPOUND_CREDIT = 0.6;
const SPELLING_CREDIT = 0.85;
/** Readings of one misspelt word kept at most. */
const MAX_SPELLINGS = 3;
const REAL_WORD_SLIP_CREDIT = 0.6;
/** Credit of a word related in meaning, by relation: a synonym or the place a named place is in counts more than a broader word. */
const RELATED_CREDIT: Readonly<Record<Relation, number>> = { synonym: 0.7, attribute: 0.7, 'part-of': 0.7, broader: 0.5 };
/** A compound part or prefix must be this long to count. */
const MIN_PART = 4;

function present(vocab: Vocabulary, term: string | undefined): term is string {
  return term !== undefined && vocab.docFreq(term) > 0;
}

function variantMatches(vocab: Vocabulary, surface: string): TermMatch[] {
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
function superlativeMatches(vocab: Vocabulary, surface: string): TermMatch[] {
  if (vocab.language !== 'en') return [];
  const out: TermMatch[] = [];
  for (const form of superlativeForms(surface)) {
    const t = vocab.termOfSurface(form);
    if (present(vocab, t) && !out.some((m) => m.term === t)) out.push({ term: t, credit: VARIANT_CREDIT });
  }
  return out;
}

/**
 * A German word's other forms that no ending links ("Rückgabe" / "zurückgeben", "zurückzugeben" /
 * "zurückgeben": language/german-derivations.ts), and a French irregular verb's ("vient" /
 * "viennent": language/french-verbs.ts), as the knowledge base writes them, at a sibling's credit.
 */
function derivationMatches(vocab: Vocabulary, surface: string): TermMatch[] {
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

function compoundMatches(vocab: Vocabulary, surface: string, term: string): TermMatch[] {
  // In German and Dutch also as written, where the stemmer cuts the longer word elsewhere
  // ("Tiere" → "tier", but "Haustiere" → "hausti"; "Mäher" → "mah", too short to look for).
  const asWritten = COMPOUNDING.has(vocab.language) && surface.length > MIN_PART;
  if (term.length < MIN_PART && !asWritten) return [];
  const out = new Map<string, number>();
  // The question's word ends a longer word of the knowledge base ("card" in "mastercard").
  if (term.length >= MIN_PART) for (const t of vocab.termsWithSuffix(term, 16)) if (t.length >= term.length + 3) out.set(t, COMPOUND_CREDIT);
  if (asWritten) {
    for (const v of vocab.surfacesWithSuffix(surface, 16)) {
      const t = vocab.termOfSurface(v);
      if (present(vocab, t) && v.length >= surface.length + 3) out.set(t, COMPOUND_CREDIT);
    }
  }
  // A long question word starts a longer word ("versand" in "versandkosten").
  if (term.length >= 5) {
    for (const v of vocab.surfacesWithPrefix(term, 16)) {
      const t = vocab.termOfSurface(v);
      if (present(vocab, t) && v.length >= term.length + 3) out.set(t, COMPOUND_CREDIT);
    }
  }
  // The question's word is two words of the knowledge base ("lieferzeit" = "liefer" + "zeit").
  if (out.size === 0) for (const m of compoundParts(vocab, term)) out.set(m.term, m.credit);
  return [...out].map(([t, credit]) => ({ term: t, credit }));
}

/**
 * A compound's reading also matches its words written apart, as an exact compound does
 * ("versandkostn" → "versandkost", and "Der Versand … kostet").
 */
function withCompoundParts(vocab: Vocabulary, matches: TermMatch[]): TermMatch[] {
  if (!COMPOUNDING.has(vocab.language)) return matches;
  const parts = matches.flatMap((m) => compoundParts(vocab, m.term).map((part) => ({ term: part.term, credit: Math.min(part.credit, m.credit) })));
  return parts.length === 0 ? matches : mergeMatches(matches, parts);
}

/**
 * German words after which a capitalised word names a place ("nach Graz", "ich wohne in Linz"):
 * German capitalises every noun, so a word that is also a place ("Porto", postage) is read as the
 * place only here, when it is a country, or when it is all the question says ("Wien?").
 */
const GERMAN_PLACE_WORDS: ReadonlySet<string> = new Set(['nach', 'in', 'im', 'aus', 'von', 'vom', 'bei', 'ab', 'bis', 'nahe', 'richtung']);

/** Languages that write compounds as one word. */
const COMPOUNDING = new Set(['de', 'nl']);

/**
 * The two words of the knowledge base a compound is made of, or none: "lieferzeit" = "liefer" +
 * "zeit", possibly with a linking "s" ("versandsart"), the second perhaps with an ending the
 * records give it ("versandkost" = "versand" + "kostet").
 */
function compoundParts(vocab: Vocabulary, term: string): TermMatch[] {
  if (term.length < 2 * MIN_PART) return [];
  for (let i = MIN_PART; i <= term.length - MIN_PART; i++) {
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

/** A compound met only by its last word is a kind of that thing, as a broader word is. */
const COMPOUND_HEAD_CREDIT = 0.5;

/**
 * The last word of a German or Dutch compound, where the records use it and nothing else of the
 * compound: "Verlängerungskabel" is a "Kabel", as every compound is a kind of its last word. The
 * longest such word, at least MIN_PART letters after at least MIN_PART ("Bestellung" is not
 * "be" + "Stellung").
 */
function compoundHeadMatches(vocab: Vocabulary, surface: string): TermMatch[] {
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

function spellingMatches(vocab: Vocabulary, surface: string): Spelling {
  // Only words of some length that are not ordinary words of the language: "retrun", not "form".
  if (surface.length < 4 || !/^[a-z]+$/.test(surface)) return { matches: [] };
  if (hasCommonWords(vocab.language) && commonRank(surface, vocab.language) !== undefined) return { matches: [] };
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

function realWordSlips(vocab: Vocabulary, surface: string): TermMatch[] {
  if (surface.length < 5 || !/^[a-z]+$/.test(surface)) return [];
  const out: TermMatch[] = [];
  for (const v of vocab.surfacesWithinOneEdit(surface)) {
    const t = vocab.termOfSurface(v);
    if (present(vocab, t) && !out.some((m) => m.term === t)) out.push({ term: t, credit: REAL_WORD_SLIP_CREDIT });
  }
  return out;
}

/** Both lists' terms, each with its higher credit, best first. */
function mergeMatches(a: readonly TermMatch[], b: readonly TermMatch[]): TermMatch[] {
  const out = new Map<string, number>();
  for (const m of [...a, ...b]) if ((out.get(m.term) ?? 0) < m.credit) out.set(m.term, m.credit);
  return [...out].map(([term, credit]) => ({ term, credit })).sort((x, y) => y.credit - x.credit);
}

/** A related word's content terms (stop words left out), and how much a match of them counts. */
interface RelatedTerms {
  terms: readonly string[];
  /** A one-word related word that meets the compounds ending with it (`RelatedWord.endsCompounds`), as the analysis writes it (lower case, folded). */
  compoundEnd: string | undefined;
  credit: number;
  relation: Relation;
}

/**
 * The analysed forms of each remembered list of related words (`relatedWords` keeps the lists),
 * so a word asked again is not stemmed again: they do not depend on the knowledge base. Entries go
 * with their lists.
 */
const analysedRelated = new WeakMap<readonly RelatedWord[], { language: string; related: readonly RelatedTerms[] }>();

function relatedTermsOf(surface: string, language: string): readonly RelatedTerms[] {
  const words = relatedWords(surface, language);
  if (words.length === 0) return [];
  const known = analysedRelated.get(words);
  if (known !== undefined && known.language === language) return known.related;
  const related = words.map(({ lemma, relation, endsCompounds }): RelatedTerms => {
    const { terms, stops, surfaces } = analyzeWords(lemma, language, 'query');
    const content = terms.filter((_, i) => !stops[i]);
    return { terms: content, compoundEnd: endsCompounds === true && content.length === 1 && surfaces.length === 1 ? surfaces[0] : undefined, credit: RELATED_CREDIT[relation], relation };
  });
  analysedRelated.set(words, { language, related });
  return related;
}

/**
 * Indexed terms of words related in meaning ("swap" → "exchange", "Toronto" → "Canada"). A
 * related phrase ("give back") matches when the knowledge base has all its words.
 */
function relatedMatches(vocab: Vocabulary, surface: string, only?: Relation): TermMatch[] {
  const out = new Map<string, number>();
  const compounding = COMPOUNDING.has(vocab.language);
  for (const { terms, compoundEnd: word, credit, relation } of relatedTermsOf(surface, vocab.language)) {
    if ((only !== undefined && relation !== only) || terms.length === 0) continue;
    // In German and Dutch a field is often a compound that ends with the noun ("Breite" of
    // "Schnittbreite", "Tiefe" of "Arbeitstiefe"): met as a compound part, as a question's word is.
    if (compounding && word !== undefined && word.length > MIN_PART) {
      const partCredit = Math.min(credit, COMPOUND_CREDIT);
      for (const v of vocab.surfacesWithSuffix(word, 16)) {
        const t = vocab.termOfSurface(v);
        if (present(vocab, t) && v.length >= word.length + 3 && (out.get(t) ?? 0) < partCredit) out.set(t, partCredit);
      }
    }
    if (!terms.every((t) => vocab.docFreq(t) > 0)) continue;
    for (const t of terms) if ((out.get(t) ?? 0) < credit) out.set(t, credit);
  }
  return [...out].map(([term, credit]) => ({ term, credit }));
}

const NUMBER_RE = /^\p{N}+$/u;

/** Whether a question word (as typed, normalised) is a number ("58", "2024"). */
export function isNumberWord(surface: string): boolean {
  return NUMBER_RE.test(surface);
}
const HAS_DIGIT_RE = /\p{N}/u;

/**
 * Indexed terms of the places a town or country is in ("Wien" → "Österreich", "Dänemark" → "EU"),
 * for a word written as a name or too rare to be an ordinary word ("Nice" is a town, "nice" is not;
 * nor is "rota", which the dictionary has as a roster before it has the town in Spain).
 */
function placeMatches(vocab: Vocabulary, surface: string, isName: boolean): TermMatch[] {
  // German writes every noun with a capital, so a country's name ("Italien") is a place even when
  // it is a common word, and any other place only where a place is named ("nach Graz", not "fürs
  // Porto": `isName` is set there, see GERMAN_PLACE_WORDS); elsewhere a common word, or one the
  // dictionary has as something other than a place, must be written as a name ("Turkey", not "turkey").
  if (vocab.language === 'de') {
    if (!isName && !isCountryName(surface)) return [];
  } else if (!isName && (commonRank(surface, vocab.language) !== undefined || isOrdinaryDictionaryWord(surface, vocab.language))) return [];
  return placeNamesMatches(vocab, surface);
}

/**
 * Indexed terms of a place's other names, for a country ("USA" → "United States", "Deutschland" →
 * "Germany"), as variants; else of what it is in ("Wien" → "Österreich", "EU"), as parts.
 */
function placeNamesMatches(vocab: Vocabulary, place: string): TermMatch[] {
  const same = namesMatches(vocab, countryNames(place), VARIANT_CREDIT, [place]);
  return same.length > 0 ? same : namesMatches(vocab, placesContaining(place), RELATED_CREDIT['part-of']);
}

/**
 * A place named in several words at `surfaces[start]` ("Mexico City", "New Zealand", "Frankfurt am
 * Main"), as one word of the question: its own name where the records use it, else what it is in
 * ("Mexico City" → "We ship to Mexico"), so that neither "city" nor "new" is taken for a topic of
 * its own. Only written as a name or with a word that is not an ordinary one ("long beach" is not
 * Long Beach).
 */
function placeOfWords(surfaces: readonly string[], stops: readonly boolean[], start: number, names: ReadonlySet<string>, vocab: Vocabulary): { word: QueryWord; length: number } | undefined {
  if (stops[start]) return undefined;
  const length = placeNameLength(surfaces, start);
  if (length < 2) return undefined;
  const words = surfaces.slice(start, start + length);
  if (!words.some((w, k) => names.has(w) || (!stops[start + k] && commonRank(w, vocab.language) === undefined))) return undefined;
  const surface = words.join(' ');
  const own = namesMatches(vocab, [surface], 1);
  const matches = own.length > 0 ? own : placeNamesMatches(vocab, surface);
  const word: QueryWord = { surface, term: surface, general: 1, matches, via: own.length > 0 ? 'exact' : matches.length > 0 ? 'related' : 'none' };
  return { word, length };
}

/** Indexed terms of the names in `names` (a name of several words matches when the knowledge base has all of them), at `credit`. */
function namesMatches(vocab: Vocabulary, names: readonly string[], credit: number, skip?: readonly string[]): TermMatch[] {
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
function commonestName(vocab: Vocabulary, names: readonly string[], credit: number): TermMatch[] {
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

/**
 * A card network's name (language/payment-cards.ts) meets the network's other name ("Amex" →
 * "American Express"), and failing that, the other networks and the word for a card ("Amex" →
 * "We accept Visa and Mastercard", "all major credit cards"), as broader words.
 */
function networkMatches(vocab: Vocabulary, surface: string): TermMatch[] {
  const names = networkNames(surface);
  if (names === undefined) return [];
  const aliases = namesMatches(vocab, names, VARIANT_CREDIT, [surface]);
  if (aliases.length > 0) return aliases;
  return mergeMatches(namesMatches(vocab, cardNetworkNames(), RELATED_CREDIT.broader, names), namesMatches(vocab, cardWords(), RELATED_CREDIT.broader));
}

/**
 * A unit of measure by its name meets its symbol ("grams" → "g", "Liter" → "l"), and by its symbol
 * its names ("ml" → "millilitres"), where the records write it the other way (language/units.ts).
 */
function unitMatches(vocab: Vocabulary, surface: string): TermMatch[] {
  const symbol = unitSymbol(surface);
  if (symbol !== undefined) return vocab.docFreq(symbol) > 0 ? [{ term: symbol, credit: VARIANT_CREDIT }] : [];
  const names = unitNames(surface);
  return names === undefined ? [] : namesMatches(vocab, names, VARIANT_CREDIT);
}

/** A small number written as a word meets it as digits, and as digits its words ("two-person" / "Kestrel 2 Tent": language/number-words.ts). */
function numberMatches(vocab: Vocabulary, surface: string): TermMatch[] {
  const value = numberOfWord(surface, vocab.language);
  if (value !== undefined) return vocab.docFreq(String(value)) > 0 ? [{ term: String(value), credit: VARIANT_CREDIT }] : [];
  return namesMatches(vocab, wordsOfNumber(surface, vocab.language), VARIANT_CREDIT);
}

/** How one content word is matched: its indexed terms, best first, and the kind of match. */
export interface WordMatch {
  matches: TermMatch[];
  via: MatchKind;
  /** For a corrected slip, the word meant: a slip for an ordinary word ("meny") weighs as little as it. */
  meant?: string;
}

/**
 * Matches one content word (`surface` as typed, `term` its stem, `isName` written as a name, or in
 * German, where capitals name nothing, standing where a place is named: after GERMAN_PLACE_WORDS or
 * as the question's only word) to a vocabulary: `matchWord` itself, or a memo of it
 * (`ExpansionMemo`). The answer depends only on the three and the vocabulary; `isName` only decides
 * whether a word may be read as a place.
 */
export type WordMatcher = (surface: string, term: string, isName: boolean) => WordMatch;

/** Matches of one content word, the first kind that finds any. A number ("58", "2024") only matches exactly. */
export function matchWord(vocab: Vocabulary, surface: string, term: string, isName = false): WordMatch {
  if (vocab.docFreq(term) > 0) {
    // A compound the records also write apart ("Versandkosten" / "Der Versand kostet"), and the
    // quantity an adjective measures, which a product's fields name ("heavy" → "Weight: 620 g").
    const parts = COMPOUNDING.has(vocab.language) ? compoundParts(vocab, term) : [];
    const attributes = relatedMatches(vocab, surface, 'attribute');
    const derived = derivationMatches(vocab, surface);
    const degrees = superlativeMatches(vocab, surface);
    const alike = derived.length > 0 || degrees.length > 0 ? [{ term, credit: 1 }, ...parts, ...derived, ...degrees] : [{ term, credit: 1 }, ...parts];
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
  const derived = [...derivationMatches(vocab, surface), ...superlativeMatches(vocab, surface)];
  const variants = derived.length > 0 ? mergeMatches(variantMatches(vocab, surface), derived) : variantMatches(vocab, surface);
  if (variants.length > 0) return { matches: withCompoundParts(vocab, variants), via: 'variant' };
  const compounds = compoundMatches(vocab, surface, term);
  if (compounds.length > 0) return { matches: compounds, via: 'compound' };
  const spelled = spellingMatches(vocab, surface);
  if (spelled.meant !== undefined) return { matches: withCompoundParts(vocab, spelled.matches), via: 'spelling', meant: spelled.meant };
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

export function expandQuery(
  typed: string,
  vocab: Vocabulary,
  scale: InformativenessScale = DEFAULT_INFORMATIVENESS,
  match: WordMatcher = (surface, term, isName) => matchWord(vocab, surface, term, isName),
): ExpandedQuery {
  const spelled = spellOutChatSpeak(spellOutWont(typed, vocab.language), vocab.language, (word) => vocab.docFreq(word) > 0);
  // "the US" in capitals is the country, not the pronoun: read as the records are (tokenize.ts).
  // "one-person" is the number 1, not the pronoun (language/number-words.ts).
  const query = vocab.language === 'en' ? hyphenedNumbersAsDigits(usAsCountry(spelled), 'en') : spelled;
  const { terms, stops, surfaces } = analyzeWords(query, vocab.language, 'query');
  const names = namesIn(query, vocab.language);
  const phrases = namePhrasesIn(query, vocab.language);
  // "the cheapest" names an order to pick by, not a word the answer must contain: it asks for a price.
  const order = askedOrder(query, vocab.language);
  // "Do you sell …" names the asking, not a word a product's record must contain.
  const range = order ? undefined : askedRange(query, vocab.language);
  // "both", "jeweils" name the asking too: the same thing is asked of each product named.
  const each = order || range ? undefined : askedOfEach(query, vocab.language);
  const asking = order?.words ?? range?.words ?? each;
  const askingSurfaces = asking ? new Set(analyzeWords([...asking].join(' '), vocab.language, 'query').surfaces) : undefined;
  const aboutPaying = asksAboutPaying(surfaces);
  const contentWords = stops.filter((stop) => !stop).length;
  const seen = new Set<string>();
  let namesCurrency = false;
  const words: QueryWord[] = [];
  const stopTerms: string[] = [];
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i] as string;
    const surface = surfaces[i] as string;
    const place = placeOfWords(surfaces, stops, i, names, vocab);
    if (place !== undefined) {
      words.push(place.word);
      for (let j = i; j < i + place.length; j++) seen.add(terms[j] as string);
      i += place.length - 1;
      continue;
    }
    if (seen.has(term)) continue;
    seen.add(term);
    if (stops[i] || askingSurfaces?.has(surface)) {
      stopTerms.push(term);
      continue;
    }
    const matched = match(surface, term, names.has(surface) || (vocab.language === 'de' && (GERMAN_PLACE_WORDS.has(surfaces[i - 1] ?? '') || contentWords === 1)));
    // A slip for a function word the records use ("meny" for "many") is filler, like the word meant.
    if (matched.meant !== undefined && STOP_WORDS_BY_LANGUAGE[vocab.language]?.has(matched.meant)) {
      stopTerms.push(term);
      continue;
    }
    let { matches, via } = matched;
    // A slip on a function word ("wat", "wen") is filler, like the word meant.
    if (via === 'none' && !names.has(surface) && commonRank(surface, vocab.language) === undefined && isMisspeltStopWord(surface, vocab.language)) {
      stopTerms.push(term);
      continue;
    }
    // "200 Euro" of records that write "200 €": after a number, a currency's name is the amount the
    // records give. Not on its own: "the exchange rate of the euro" names something they never do.
    if (matches.length === 0 && isCurrencyName(surface, vocab.language) && NUMBER_RE.test(surfaces[i - 1] ?? '')) {
      namesCurrency = true;
      stopTerms.push(term);
      continue;
    }
    let typed = matched.meant ?? surface;
    // A misspelt ordinary word ("somthing") counts as the word meant, matched or not.
    const meant = via === 'none' && !names.has(surface) ? commonWordMisspelt(surface, vocab.language) : undefined;
    if (meant !== undefined) {
      typed = meant;
      const corrected = match(meant, analyzeWords(meant, vocab.language, 'query').terms[0] ?? meant, false);
      matches = corrected.matches.map((m) => ({ term: m.term, credit: m.credit * SPELLING_CREDIT }));
      if (matches.length > 0) via = 'spelling';
    }
    // In a question about paying, "cards" are the networks the records name ("Which cards do you
    // take?" / "We accept Visa, Mastercard and PayPal"); a gift card or a graphics card is not.
    if (isCardWord(surface) && aboutPaying) {
      const networks = commonestName(vocab, cardNetworkNames(), RELATED_CREDIT.synonym);
      if (networks.length > 0) {
        matches = mergeMatches(matches, networks);
        if (via === 'none') via = 'related';
      }
    }
    // …and to "take" one is to accept it ("Do you take Amex?" / "We accept American Express").
    if (aboutPaying && isTakeWord(surface)) {
      const accept = namesMatches(vocab, acceptWords(), VARIANT_CREDIT);
      if (accept.length > 0) {
        matches = mergeMatches(matches, accept);
        if (via === 'none') via = 'related';
      }
    }
    // Numbers are as informative as rare words: "58 mm", "2 years".
    const general = NUMBER_RE.test(surface) || names.has(surface) ? 1 : generalInformativeness(typed, vocab.language, scale.commonRank, scale.rareRank);
    const word: QueryWord = { surface, term, general, matches, via };
    const phrase = phrases.find((p) => p.split(' ').includes(surface));
    if (phrase !== undefined) word.phrase = phrase;
    words.push(word);
  }
  const asked = askedAnswerTypes(query, vocab.language);
  // "the cheapest" asks for a price, "the lightest" for a weight.
  const orderAsks = order ? (order.by === 'weight' ? 'weight' : 'amount') : undefined;
  if (orderAsks !== undefined && !asked.includes(orderAsks)) asked.push(orderAsks);
  if (namesCurrency && !asked.includes('amount')) asked.push('amount');
  // "phone number": its words name the kind of answer, not a topic the answer must share. "colour"
  // stays when the records use it ("Colors: navy, grey"): there it finds the line; "number" or
  // "open" would find the wrong ones ("order number", "open an investigation").
  const kinds = asked.filter((type): type is NamedKind => type === 'colour' || type === 'duration' || type === 'age' || isContactAsk(type));
  const namesKind = (w: QueryWord) => kinds.some((kind) => (kind !== 'colour' || w.matches.length === 0) && kindNameSurfaces(kind, vocab.language).has(w.surface));
  // "How long is the hose?": "long" asks for the length field too, where the records name one.
  const lengthField = asked.includes('length') ? lengthFieldMatches(vocab) : [];
  const asLength = (w: QueryWord): QueryWord[] => (lengthField.length > 0 && kindNameSurfaces('duration', vocab.language).has(w.surface) ? [{ ...w, matches: lengthField, via: 'related' }] : []);
  const topical = kinds.length === 0 ? words : words.flatMap((w) => (namesKind(w) ? asLength(w) : [w]));
  const expanded: ExpandedQuery = { language: vocab.language, words: withAnswerTypes(asked, topical, vocab), stopTerms };
  if (order) expanded.order = { direction: order.order, by: order.by };
  if (range) expanded.range = { head: new Set(analyzeWords([...range.head].join(' '), vocab.language, 'query').surfaces), qualified: range.qualified };
  if (each) expanded.each = true;
  return expanded;
}

/**
 * The records' nouns for a length ("Length", "Schwertlänge", "Longueur"), at an attribute's
 * credit, and in German and Dutch the compounds that end with one ("Schwertlänge") at a compound
 * part's: what "long" in "How long is the hose?" meets.
 */
function lengthFieldMatches(vocab: Vocabulary): TermMatch[] {
  const out = new Map<string, number>();
  for (const noun of lengthNouns(vocab.language)) {
    const { terms, surfaces } = analyzeWords(noun, vocab.language, 'query');
    const term = terms[0];
    const surface = surfaces[0];
    if (present(vocab, term)) out.set(term, RELATED_CREDIT.attribute);
    if (!COMPOUNDING.has(vocab.language) || surface === undefined) continue;
    for (const v of vocab.surfacesWithSuffix(surface, 16)) {
      const t = vocab.termOfSurface(v);
      if (present(vocab, t) && v.length >= surface.length + 3 && !out.has(t)) out.set(t, COMPOUND_CREDIT);
    }
  }
  return [...out].map(([term, credit]) => ({ term, credit }));
}

/** Kinds of answer whose asking words are not the topic ("phone number", "colour", "how long"). */
type NamedKind = ContactAsk | 'colour' | 'duration' | 'age';

/** `kindNames` as the tokeniser reads them, per kind and language; made once. */
const kindNameSurfaceSets = new Map<string, ReadonlySet<string>>();

function kindNameSurfaces(kind: NamedKind, language: string): ReadonlySet<string> {
  const key = `${kind} ${language}`;
  let set = kindNameSurfaceSets.get(key);
  if (set === undefined) {
    const names = kind === 'colour' ? colourNames(language) : kind === 'duration' ? durationNames(language) : kind === 'age' ? ageNames(language) : kindNames(kind, language);
    set = new Set(names.flatMap((name) => analyzeWords(name, language, 'query').surfaces));
    kindNameSurfaceSets.set(key, set);
  }
  return set;
}

/**
 * A phrase that asks for a kind of answer ("how long", "wie viel") adds one question word that a
 * passage holding such an answer covers (language/answer-types.ts), weighted like a function word.
 * The phrase's own words ("long") stay: a record that repeats them ("how long a repair takes") still
 * matches them, and one that answers without them ("within 30 days") covers the added word.
 * (Dropping them instead scored the same on the tuning half and lost the literal match.) Not so
 * for a kind of contact: "phone number" names the answer (`kindNames`), and the words with which
 * records offer one ("call us", `offerWords`) also find it (contact-details.ts).
 */
function withAnswerTypes(asked: readonly AnswerType[], words: QueryWord[], vocab: Vocabulary): QueryWord[] {
  if (asked.length === 0) return words;
  // "How long is it?" asks for a span of time or a length, either of which answers it: one word.
  const eitherLength = asked.includes('duration') && asked.includes('length');
  return [
    ...words,
    ...(eitherLength ? asked.filter((type) => type !== 'length') : asked).map((type): QueryWord => {
      const term = answerTypeTerm(type);
      // A way of reaching the business is also found by the words that offer it ("call us on").
      // Less than an answer of the kind covers: "calls" is not a phone number.
      const offered = isContactAsk(type) ? namesMatches(vocab, offerWords(type, vocab.language), RELATED_CREDIT.broader) : [];
      // "Where is my order?" is answered by how to track it: a word as the records write it,
      // weighed like any word they use ("tracking" in a time-tracking app is no rare word).
      if (type === 'tracking') {
        const tracking = namesMatches(vocab, trackingWords(vocab.language), 1);
        return { surface: type, term: tracking[0]?.term ?? term, general: 0, matches: tracking, via: tracking.length > 0 ? 'related' : 'none' };
      }
      // Any way to reach a person is a phone number or an email address.
      const kinds =
        type === 'contact'
          ? CONTACT_KINDS.map((kind) => ({ term: answerTypeTerm(kind), credit: 1 }))
          : type === 'duration' && eitherLength
            ? [
                { term, credit: 1 },
                { term: answerTypeTerm('length'), credit: 1 },
              ]
            : [{ term, credit: 1 }];
      return { surface: type, term, general: 0, matches: [...kinds, ...offered], via: 'exact' };
    }),
  ];
}
