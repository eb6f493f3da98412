/**
 * A place the records never name is met by the places it is in ("Italien" → "EU",
 * retrieval/word-meanings.ts `placeMatches`). A record whose title names another country is about
 * that country, and what it says of the larger place is said of that one: "Liefert ihr auch nach
 * Österreich? … Da Österreich zur EU gehört, fallen keine Zollgebühren an" does not answer
 * "Liefert ihr nach Italien?", while "In welche anderen Länder versendet ihr? … in alle EU-Länder"
 * does. A title that names the larger place itself ("Do you ship to Europe?") still answers.
 */
import { isCountryName, isPlaceName } from '../language/places.js';
import { analyzeWords } from '../retrieval/tokenize.js';
import type { QueryWord } from '../retrieval/query-expansion.js';
import type { RetrievedRecord } from './types.js';

/** Whether `word` is a place the records do not name, met by the places it is in. */
function isPlaceMetByWhereItIs(word: QueryWord): boolean {
  return word.via === 'related' && word.matches.length > 0 && isPlaceName(word.surface);
}

/** The terms of the countries a title names. */
function countriesNamed(title: string, language: string): string[] {
  const { terms, surfaces } = analyzeWords(title, language, 'index');
  return terms.filter((_, i) => isCountryName(surfaces[i] as string));
}

/**
 * Per record, the indexes of the question's words (places met by where they are) whose matches do
 * not count in it, because its title names another country; undefined when the question has no
 * such word, as most have not.
 */
export function placesAboutOtherCountries(records: readonly RetrievedRecord[], words: readonly QueryWord[], language: string): (ReadonlySet<number> | undefined)[] | undefined {
  const places = words.flatMap((w, i) => (isPlaceMetByWhereItIs(w) ? [i] : []));
  if (places.length === 0) return undefined;
  return records.map((r) => {
    const countries = r.title ? countriesNamed(r.title, language) : [];
    if (countries.length === 0) return undefined;
    const skip = new Set<number>();
    for (const i of places) {
      const around = new Set((words[i] as QueryWord).matches.map((m) => m.term));
      if (countries.some((c) => !around.has(c))) skip.add(i);
    }
    return skip.size > 0 ? skip : undefined;
  });
}
