/**
 * Where a town or country is, for meeting a visitor's place with the records' wording: "Schickt ihr
 * nach Wien?" is answered by "Nach Österreich liefern wir…", "Vous envoyez à Genève ?" by
 * "Livraison en Suisse…", "Do you ship to Denmark?" by "We ship to all EU countries". A town is in
 * its country; a country is in its continent and, for members, in the European Union.
 *
 * The gazetteer is `lexicon/places.json`, generated from npm packages by `scripts/build-places.mjs`
 * (GeoNames towns of 20,000 people or more; country names in English, German, French, Spanish,
 * Italian, Dutch and Portuguese). It is read on first use (about 270 KB, a few milliseconds) and
 * kept (`loadPlaces` at start-up). Names are matched as the question's words are: normalised, one word.
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
 * One-word place names, normalised both as German questions are (umlauts as ae/oe/ue) and as
 * other languages' are (diacritics dropped): "koeln" and "koln" are both Köln.
 */
let names: Map<string, Place> | undefined;

function load(): Gazetteer {
  // lexicon/ is three levels above both src/knowledge/language and dist/knowledge/language.
  gazetteer ??= JSON.parse(readFileSync(new URL('../../../lexicon/places.json', import.meta.url), 'utf8')) as Gazetteer;
  return gazetteer;
}

function lookup(): Map<string, Place> {
  if (names) return names;
  const g = load();
  const map = new Map<string, Place>();
  const put = (name: string, place: Place) => {
    if (/[\s-]/u.test(name)) return;
    const folded = normalizeFor(name, 'en');
    const german = /[äöüÄÖÜß]/u.test(name) ? normalizeFor(name, 'de') : folded;
    for (const key of german === folded ? [folded] : [folded, german]) {
      // A country's name wins over a town of the same name (Luxembourg, Singapore, Mexico).
      if (!map.has(key) || place.isCountry) map.set(key, place);
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

/** Whether `word` (one normalised word) is the name of a country ("italien", "denmark"), not only of a town. */
export function isCountryName(word: string): boolean {
  return lookup().get(word)?.isCountry === true;
}

/**
 * The names of what the place `word` (one normalised word) is in, or `[]` when it is not a known
 * place: for a town its country's names; for both its continent's and, for members of the
 * European Union, the Union's. Names in every language the gazetteer has: the caller keeps those
 * its knowledge base uses.
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
