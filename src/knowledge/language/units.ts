/**
 * Units of measure by name and by symbol, for meeting a visitor's "How many grams of coffee fit in
 * the basket?" with a product's "Dose: 18 to 22 g", and "How many watts is it?" with "Power:
 * 1500 W". Product specifications write symbols; visitors say names, in their language.
 *
 * A closed list of the metric units shops' specifications use, and watts and volts, with their
 * names in English, German, French, Spanish, Italian, Dutch and Portuguese, normalised as the
 * question's words are (lower case, diacritics folded). Left out: names that are also ordinary
 * words or other units ("Zoll" is an inch and customs duty, "pound" a weight and a currency,
 * "bar" a pressure and a bar), and units of time, which the answer types read (answer-types.ts).
 */

const UNITS: readonly { symbol: string; names: string }[] = [
  { symbol: 'mg', names: 'milligram milligrams milligramme milligrammes milligramm milligrammi miligramo miligramos miligrama miligramas' },
  { symbol: 'g', names: 'gram grams gramme grammes gramm grammi gramo gramos grama gramas' },
  { symbol: 'kg', names: 'kilogram kilograms kilogramme kilogrammes kilogramm kilo kilos kilogrammi chilo chili kilogramo kilogramos quilograma quilogramas quilo quilos' },
  { symbol: 'ml', names: 'millilitre millilitres milliliter milliliters millilitri mililitro mililitros' },
  { symbol: 'cl', names: 'centilitre centilitres centiliter centiliters centilitri centilitro centilitros' },
  { symbol: 'l', names: 'litre litres liter liters litri litro litros' },
  { symbol: 'mm', names: 'millimetre millimetres millimeter millimeters millimetri milimetro milimetros' },
  { symbol: 'cm', names: 'centimetre centimetres centimeter centimeters centimetri centimetro centimetros' },
  { symbol: 'm', names: 'metre metres meter meters metri metro metros' },
  { symbol: 'km', names: 'kilometre kilometres kilometer kilometers chilometri kilometro kilometros quilometro quilometros' },
  { symbol: 'w', names: 'watt watts' },
  { symbol: 'kw', names: 'kilowatt kilowatts' },
  { symbol: 'v', names: 'volt volts' },
];

const SYMBOLS_BY_NAME = new Map<string, string>();
const NAMES_BY_SYMBOL = new Map<string, readonly string[]>();
for (const { symbol, names } of UNITS) {
  const list = names.split(/\s+/).filter((n) => n.length > 0);
  for (const name of list) SYMBOLS_BY_NAME.set(name, symbol);
  NAMES_BY_SYMBOL.set(symbol, list);
}

/** The symbol of the unit `word` (one normalised word: "grams", "Liter", "millimètres") names, or undefined. */
export function unitSymbol(word: string): string | undefined {
  return SYMBOLS_BY_NAME.get(word);
}

/** The names of the unit whose symbol is `word` ("ml" → "millilitre", "Milliliter", …), or undefined. */
export function unitNames(word: string): readonly string[] | undefined {
  return NAMES_BY_SYMBOL.get(word);
}

/** Symbols read only in lower case after a number: "5G" is a mobile network, "5M" five million. */
const LOWER_CASE_ONLY: ReadonlySet<string> = new Set(['g', 'm']);

/**
 * A number written against one of the units' symbols ("51mm", "1.2L", "600ml"): the number and the
 * symbol are groups 1 and 2. Longer symbols first ("mm" before "m").
 */
const GLUED_UNIT_RE = new RegExp(
  `(?<![\\p{L}\\p{N}.,])(\\d+(?:[.,]\\d+)?)(${UNITS.map((u) => u.symbol)
    .sort((a, b) => b.length - a.length)
    .map((symbol) => (LOWER_CASE_ONLY.has(symbol) ? symbol : [...symbol].map((c) => `[${c}${c.toUpperCase()}]`).join('')))
    .join('|')})(?![\\p{L}\\p{N}])`,
  'gu',
);

/**
 * `question` with a number written against a unit's symbol written apart from it, as records and
 * specifications mostly write them ("51mm" → "51 mm"): as one word, "51mm" met nothing of "Diameter:
 * 51 mm" and weighed as a name the records never mention. Kept where the knowledge base itself
 * writes it so (`used`, given the lower-case word).
 */
export function numbersApartFromUnits(question: string, used: (word: string) => boolean): string {
  if (!/\d[a-z]/iu.test(question)) return question;
  return question.replace(GLUED_UNIT_RE, (glued: string, number: string, symbol: string) => (used(glued.toLowerCase()) ? glued : `${number} ${symbol}`));
}
