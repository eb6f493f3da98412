/**
 * A question word met by what it means or names where the knowledge base words it otherwise:
 * related words ("swap" → "exchange", "heavy" → "weight": language/related-words.ts), the places a
 * town or country is in ("Wien" → "Österreich"), a card network's other names, a unit's symbol, a
 * number as digits or as a word, and the records' nouns for a length.
 */
import { lengthNouns } from '../language/answer-types.js';
import { sizeNouns } from '../language/size-question.js';
import { numberOfWord, wordsOfNumber } from '../language/number-words.js';
import { cardNetworkNames, cardWords, networkNames } from '../language/payment-cards.js';
import { countryNames, isCountryName, placesContaining } from '../language/places.js';
import { unitNames, unitSymbol } from '../language/units.js';
import { commonRank } from '../language/common-words.js';
import { isOnlyAName, isOrdinaryDictionaryWord, type Relation, type RelatedWord, relatedWords } from '../language/related-words.js';
import { analyzeWords } from './tokenize.js';
import { type TermMatch, type Vocabulary, VARIANT_CREDIT, COMPOUND_CREDIT, RELATED_CREDIT, MIN_PART, present, COMPOUNDING, compoundsEndingWith, mergeMatches, namesMatches } from './term-matches.js';

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
 * Indexed terms of words related in meaning ("swap" → "exchange", "Toronto" → "Canada"), by any
 * relation or `only` those given. A related phrase ("give back") matches when the knowledge base has
 * all its words.
 */
export function relatedMatches(vocab: Vocabulary, surface: string, only?: readonly Relation[]): TermMatch[] {
  const out = new Map<string, number>();
  const compounding = COMPOUNDING.has(vocab.language);
  for (const { terms, compoundEnd: word, credit, relation } of relatedTermsOf(surface, vocab.language)) {
    if ((only !== undefined && !only.includes(relation)) || terms.length === 0) continue;
    // In German and Dutch a field is often a compound that ends with the noun ("Breite" of
    // "Schnittbreite", "Tiefe" of "Arbeitstiefe"): met as a compound part, as a question's word is.
    if (compounding && word !== undefined && word.length > MIN_PART) {
      const partCredit = Math.min(credit, COMPOUND_CREDIT);
      for (const t of compoundsEndingWith(vocab, word)) if ((out.get(t) ?? 0) < partCredit) out.set(t, partCredit);
    }
    if (!terms.every((t) => vocab.docFreq(t) > 0)) continue;
    for (const t of terms) if ((out.get(t) ?? 0) < credit) out.set(t, credit);
  }
  return [...out].map(([term, credit]) => ({ term, credit }));
}

/**
 * Indexed terms of the places a town or country is in ("Wien" → "Österreich", "Dänemark" → "EU"),
 * for a word written as a name or too rare to be an ordinary word ("Nice" is a town, "nice" is not;
 * nor is "rota", which the dictionary has as a roster before it has the town in Spain).
 */
export function placeMatches(vocab: Vocabulary, surface: string, isName: boolean): TermMatch[] {
  // German writes every noun with a capital, so a country's name ("Italien") is a place even when
  // it is a common word, and any other place only where a place is named ("nach Graz", not "fürs
  // Porto": `isName` is set there, see GERMAN_PLACE_WORDS); elsewhere a common word, or one the
  // dictionary has as something other than a place, must be written as a name ("Turkey", not "turkey").
  // A country's name typed in lower case is the country still ("do u ship 2 ireland"), unless in
  // English the dictionary has it as anything but a name ("china", "jersey", "chad").
  // Other languages have no dictionary here: there a country's name is the country.
  if (!isName && !isCountryInLowerCase(surface, vocab.language)) {
    if (vocab.language === 'de' || commonRank(surface, vocab.language) !== undefined || isOrdinaryDictionaryWord(surface, vocab.language)) return [];
  }
  return placeNamesMatches(vocab, surface);
}

/** Whether `surface`, not written as a name, still names a country (see `placeMatches`): it weighs as a name then. */
export function isCountryInLowerCase(surface: string, language: string): boolean {
  return isCountryName(surface) && (language !== 'en' || isOnlyAName(surface, language));
}

/** A country's other names the knowledge base writes ("USA" → "United States"), for a country's name it also writes, as variants. */
export function countryAliasMatches(vocab: Vocabulary, surface: string): TermMatch[] {
  return isCountryName(surface) ? namesMatches(vocab, countryNames(surface), VARIANT_CREDIT, [surface]) : [];
}

/**
 * Indexed terms of a place's other names, for a country ("USA" → "United States", "Deutschland" →
 * "Germany"), as variants; else of what it is in ("Wien" → "Österreich", "EU"), as parts.
 */
export function placeNamesMatches(vocab: Vocabulary, place: string): TermMatch[] {
  const same = namesMatches(vocab, countryNames(place), VARIANT_CREDIT, [place]);
  return same.length > 0 ? same : namesMatches(vocab, placesContaining(place), RELATED_CREDIT['part-of']);
}

/**
 * A card network's name (language/payment-cards.ts) meets the network's other name ("Amex" →
 * "American Express"), and failing that, the other networks and the word for a card ("Amex" →
 * "We accept Visa and Mastercard", "all major credit cards"), as broader words.
 */
export function networkMatches(vocab: Vocabulary, surface: string): TermMatch[] {
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
export function unitMatches(vocab: Vocabulary, surface: string): TermMatch[] {
  const symbol = unitSymbol(surface);
  if (symbol !== undefined) return vocab.docFreq(symbol) > 0 ? [{ term: symbol, credit: VARIANT_CREDIT }] : [];
  const names = unitNames(surface);
  return names === undefined ? [] : namesMatches(vocab, names, VARIANT_CREDIT);
}

/** A small number written as a word meets it as digits, and as digits its words ("two-person" / "Kestrel 2 Tent": language/number-words.ts). */
export function numberMatches(vocab: Vocabulary, surface: string): TermMatch[] {
  const value = numberOfWord(surface, vocab.language);
  if (value !== undefined) return vocab.docFreq(String(value)) > 0 ? [{ term: String(value), credit: VARIANT_CREDIT }] : [];
  return namesMatches(vocab, wordsOfNumber(surface, vocab.language), VARIANT_CREDIT);
}

/**
 * The records' nouns for a length ("Length", "Schwertlänge", "Longueur"), at an attribute's
 * credit, and in German and Dutch the compounds that end with one ("Schwertlänge") at a compound
 * part's: what "long" in "How long is the hose?" meets.
 */
export function lengthFieldMatches(vocab: Vocabulary): TermMatch[] {
  return fieldMatches(vocab, lengthNouns(vocab.language));
}

/** The same for the nouns of a size ("Maße", "Größe", "dimensions"): what "groß" in "Wie groß ist das Hochbeet?" meets. */
export function sizeFieldMatches(vocab: Vocabulary): TermMatch[] {
  return fieldMatches(vocab, sizeNouns(vocab.language));
}

function fieldMatches(vocab: Vocabulary, nouns: readonly string[]): TermMatch[] {
  const out = new Map<string, number>();
  for (const noun of nouns) {
    const { terms, surfaces } = analyzeWords(noun, vocab.language, 'query');
    const term = terms[0];
    const surface = surfaces[0];
    if (present(vocab, term)) out.set(term, RELATED_CREDIT.attribute);
    if (!COMPOUNDING.has(vocab.language) || surface === undefined) continue;
    for (const t of compoundsEndingWith(vocab, surface)) if (!out.has(t)) out.set(t, COMPOUND_CREDIT);
  }
  return [...out].map(([term, credit]) => ({ term, credit }));
}
