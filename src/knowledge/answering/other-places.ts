/**
 * A place the records never name is met by the places it is in ("Italien" → "EU",
 * retrieval/word-meanings.ts `placeMatches`). A record whose title names another country is about
 * that country, and what it says of the larger place is said of that one: "Liefert ihr auch nach
 * Österreich? … Da Österreich zur EU gehört, fallen keine Zollgebühren an" does not answer
 * "Liefert ihr nach Italien?", while "In welche anderen Länder versendet ihr? … in alle EU-Länder"
 * does. A title that names the larger place itself ("Do you ship to Europe?") still answers.
 *
 * Nor does a record that leaves out the country a place is in answer for the place by the larger
 * place: "Außer nach Deutschland, Österreich und in die Schweiz liefern wir in alle EU-Länder …"
 * does not answer "Was kostet der Versand nach Berlin?", which "EU" met.
 *
 * Nor does a record that speaks of the European Union answer for a country outside it by its
 * continent: "Do you ship to Europe? Yes, we ship to all 27 EU countries as well as Norway … Standard
 * European delivery costs £9.95" says nothing of Serbia or Russia, which "European" met.
 */
import { exceptedPlaces } from '../language/excepted-places.js';
import { isCountryName, isPlaceName, unionNames } from '../language/places.js';
import { analyzeWords } from '../retrieval/tokenize.js';
import type { QueryWord } from '../retrieval/query-expansion.js';
import type { RetrievedRecord } from './types.js';
import type { RecordUnits } from './units.js';

/** Whether `word` is a place the records do not name, met by the places it is in. */
function isPlaceMetByWhereItIs(word: QueryWord): boolean {
  return word.via === 'related' && word.matches.length > 0 && isPlaceName(word.surface);
}

/** The terms of the countries a title names. */
function countriesNamed(title: string, language: string): string[] {
  const { terms, surfaces } = analyzeWords(title, language, 'index');
  return terms.filter((_, i) => isCountryName(surfaces[i] as string));
}

/** The terms of the places a record names only as exceptions ("Außer nach Deutschland … in alle EU-Länder"). */
function exceptedTerms(text: string, language: string): string[] {
  const places = exceptedPlaces(text, language);
  return places.length === 0 ? places : places.flatMap((place) => analyzeWords(place, language, 'index').terms);
}

/** The terms the union's one-word names are indexed as, per language ("eu", "ue"). */
const unionTermsByLanguage = new Map<string, ReadonlySet<string>>();

function unionTerms(language: string): ReadonlySet<string> {
  let terms = unionTermsByLanguage.get(language);
  if (terms === undefined) {
    terms = new Set(unionNames().flatMap((name) => {
      const analysed = analyzeWords(name, language, 'index').terms;
      return analysed.length === 1 ? analysed : [];
    }));
    unionTermsByLanguage.set(language, terms);
  }
  return terms;
}

/**
 * Per record, the indexes of the question's words (places met by where they are) whose matches do
 * not count in it, because its title names another country, or because it names the union the
 * place is not in; undefined when the question has no such word, as most have not.
 */
export function placesAboutOtherCountries(records: readonly RetrievedRecord[], units: readonly RecordUnits[], words: readonly QueryWord[], language: string): (ReadonlySet<number> | undefined)[] | undefined {
  const places = words.flatMap((w, i) => (isPlaceMetByWhereItIs(w) ? [i] : []));
  if (places.length === 0) return undefined;
  const union = unionTerms(language);
  // The places outside the union: none of what they are in is it.
  const outside = places.filter((i) => !(words[i] as QueryWord).matches.some((m) => union.has(m.term)));
  return records.map((r, k) => {
    const countries = r.title ? countriesNamed(r.title, language) : [];
    // Read from the record's units, analysed already (units.ts), not from its text again.
    const speaksOfUnion = outside.length > 0 && (units[k]?.units ?? []).some((u) => [...union].some((t) => u.tf.has(t) || u.context.has(t)));
    if (countries.length === 0 && !speaksOfUnion) return undefined;
    const skip = new Set<number>();
    for (const i of places) {
      const around = new Set((words[i] as QueryWord).matches.map((m) => m.term));
      if (countries.some((c) => !around.has(c)) || (speaksOfUnion && outside.includes(i))) skip.add(i);
    }
    return skip.size > 0 ? skip : undefined;
  });
}

/**
 * Per record, the indexes of the question's words (places met by where they are) that the record
 * leaves out: it names as an exception a place they are in ("Außer nach Deutschland … in alle
 * EU-Länder" for "Berlin"); undefined when there is none, as for most questions.
 */
export function placesLeftOut(records: readonly RetrievedRecord[], words: readonly QueryWord[], language: string): (ReadonlySet<number> | undefined)[] | undefined {
  const places = words.flatMap((w, i) => (isPlaceMetByWhereItIs(w) ? [i] : []));
  if (places.length === 0) return undefined;
  let any = false;
  const out = records.map((r) => {
    const excepted = exceptedTerms(r.text, language);
    if (excepted.length === 0) return undefined;
    const skip = new Set(places.filter((i) => (words[i] as QueryWord).matches.some((m) => excepted.includes(m.term))));
    if (skip.size === 0) return undefined;
    any = true;
    return skip;
  });
  return any ? out : undefined;
}
