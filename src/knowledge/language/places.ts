/**
 * Where a town or country is, for meeting a visitor's place with the records' wording: "Schickt ihr
 * nach Wien?" is answered by "Nach Österreich liefern wir…", "Vous envoyez à Genève ?" by
 * "Livraison en Suisse…", "Do you ship to Denmark?" by "We ship to all EU countries". A town is in
 * its country; a country is in its continent and, for members, in the European Union.
 *
 * The gazetteer is `lexicon/places.json`, generated from npm packages by `scripts/build-places.mjs`
 * (GeoNames towns of 20,000 people or more; country names in English, German, French, Spanish,
 * Italian, Dutch and Portuguese). It is read on first use (about 270 KB, a few milliseconds) and
 * kept (`loadPlaces` at start-up). Names are matched as the question's words are: normalised; a name
 * of several words ("Mexico City") as its words in a row.
 */
import { readFileSync } from 'node:fs';
import { normalizeFor } from '../retrieval/tokenize.js';

interface Gazetteer {
  countries: Record<string, { names: string[]; continent: string | null }>;
  continents: Record<string, string[]>;
  eu: string[];
  cities: Record<string, string[]>;
}

/** The European Union's name and abbreviation in the same languages. */
const EU_NAMES = ['EU', 'European Union', 'Europäische Union', 'Union européenne', 'UE', 'Unión Europea', 'Unione europea', 'Europese Unie', 'União Europeia'];

interface Place {
  /** ISO 3166-1 alpha-2 of the country the place is or is in. */
  country: string;
  /** Whether the name is the country's own (not a town's). */
  isCountry: boolean;
}

let gazetteer: Gazetteer | undefined;
/**
 * Place names by their normalised words joined with a space ("koeln", "mexico city", "frankfurt am
 * main"), normalised both as German questions are (umlauts as ae/oe/ue) and as other languages'
 * are (diacritics dropped): "koeln" and "koln" are both Köln.
 */
let names: Map<string, Place> | undefined;
/** The most words a name of `names` has. */
let longestName = 1;
/** The first words of the names of several words ("new" of "new york"). */
const firstWords = new Set<string>();

/** Longest place name read, in words: longer ones are official forms nobody types ("… of Great Britain and Northern Ireland"). */
const MAX_NAME_WORDS = 4;

function load(): Gazetteer {
  // lexicon/ is three levels above both src/knowledge/language and dist/knowledge/language.
  gazetteer ??= JSON.parse(readFileSync(new URL('../../../lexicon/places.json', import.meta.url), 'utf8')) as Gazetteer;
  return gazetteer;
}

/** A name's words as the tokeniser reads a question's, joined with a space, in German and in other languages' folding. */
function keysOf(name: string): string[] {
  if (/[^\p{L}\s'’-]/u.test(name)) return [];
  const words = name.split(/[\s'’-]+/u).filter((w) => w.length > 0);
  if (words.length === 0 || words.length > MAX_NAME_WORDS) return [];
  const folded = words.map((w) => normalizeFor(w, 'en')).join(' ');
  const german = /[äöüÄÖÜß]/u.test(name) ? words.map((w) => normalizeFor(w, 'de')).join(' ') : folded;
  return german === folded ? [folded] : [folded, german];
}

function lookup(): Map<string, Place> {
  if (names) return names;
  const g = load();
  const map = new Map<string, Place>();
  const put = (name: string, place: Place) => {
    for (const key of keysOf(name)) {
      // A country's name wins over a town of the same name (Luxembourg, Singapore, Mexico).
      if (!map.has(key) || place.isCountry) map.set(key, place);
      const words = key.split(' ');
      longestName = Math.max(longestName, words.length);
      if (words.length > 1) firstWords.add(words[0] as string);
    }
  };
  for (const [country, towns] of Object.entries(g.cities)) for (const town of towns) put(town, { country, isCountry: false });
  for (const [country, c] of Object.entries(g.countries)) for (const name of c.names) put(name, { country, isCountry: true });
  names = map;
  return map;
}

/** Reads the gazetteer now (a few tens of milliseconds), so that no question waits for it: call at start-up. */
export function loadPlaces(): void {
  lookup();
}

/** Whether the gazetteer has been read. */
export function placesHeld(): boolean {
  return names !== undefined;
}

/**
 * The number of words of the longest place name of two words or more that starts at `words[start]`
 * ("mexico city", "new zealand", "frankfurt am main"), or 0: `words` are a question's normalised
 * words, stop words included.
 */
export function placeNameLength(words: readonly string[], start: number): number {
  const map = lookup();
  // Most words start no name of several words: answered without joining any.
  if (!firstWords.has(words[start] as string)) return 0;
  for (let n = Math.min(longestName, words.length - start); n >= 2; n--) {
    if (map.has(words.slice(start, start + n).join(' '))) return n;
  }
  return 0;
}

/** Whether `word` (normalised words joined with a space) names a town or a country the gazetteer knows. */
export function isPlaceName(word: string): boolean {
  return lookup().has(word);
}

/**
 * A country's names in every language the gazetteer has, and its short names ("usa" → "United
 * States", "Vereinigte Staaten", …), when `word` (normalised words joined with a space) names a
 * country; `[]` otherwise.
 */
export function countryNames(word: string): string[] {
  const place = lookup().get(word);
  if (!place?.isCountry) return [];
  return [...(load().countries[place.country]?.names ?? [])];
}

/** Whether `word` (one normalised word) is the name of a country ("italien", "denmark"), not only of a town. */
export function isCountryName(word: string): boolean {
  return lookup().get(word)?.isCountry === true;
}

/** The European Union's names in the languages the gazetteer has ("EU", "Union européenne", "UE"). */
export function unionNames(): readonly string[] {
  return EU_NAMES;
}

/**
 * The names of what the place `word` (normalised words joined with a space) is in, or `[]` when it
 * is not a known place: for a town its country's names; for both its continent's and, for members
 * of the European Union, the Union's. Names in every language the gazetteer has: the caller keeps
 * those its knowledge base uses.
 */
export function placesContaining(word: string): string[] {
  const place = lookup().get(word);
  if (!place) return [];
  const g = load();
  const country = g.countries[place.country];
  if (!country) return [];
  const out: string[] = place.isCountry ? [] : [...country.names];
  if (g.eu.includes(place.country)) out.push(...EU_NAMES);
  if (country.continent) out.push(...(g.continents[country.continent] ?? []));
  return out;
}
