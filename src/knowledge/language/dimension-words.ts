/**
 * German and French adjectives of a dimension and the nouns that name it, so that "Wie dick ist
 * der Schlauch?" meets "Durchmesser: 1/2 Zoll" and "Elle est large de combien ?" meets "Largeur :
 * 70 cm", though the question never names the field. English has these links from WordNet's
 * attributes (related-words.ts: "heavy" → weight, "wide" → width); no WordNet for German or
 * French ships on npm, and the adjectives of dimension are a small closed class, so they are listed.
 *
 * Keys are question words as the analysis writes them (lower case; German umlauts as "ae", "oe",
 * "ue" and "ß" as "ss"; French without accents). Left out: German "lange", which is "for a long
 * time" as often as "long" ("Wie lange dauert …": a duration, answer-types.ts), and the weight
 * adjectives, which ask for a weight (answer-types.ts).
 */

const GERMAN_ENDINGS = ['', 'e', 'er', 'es', 'en', 'em'];

function germanForms(base: string, nouns: readonly string[], except: readonly string[] = []): [string, readonly string[]][] {
  return GERMAN_ENDINGS.map((ending) => base + ending)
    .filter((form) => !except.includes(form))
    .map((form) => [form, nouns]);
}

function frenchForms(forms: readonly string[], nouns: readonly string[]): [string, readonly string[]][] {
  return forms.map((form) => [form, nouns]);
}

const DIMENSION_NOUNS: Readonly<Record<string, ReadonlyMap<string, readonly string[]>>> = {
  de: new Map([
    ...germanForms('dick', ['Dicke', 'Durchmesser', 'Stärke']),
    ...germanForms('breit', ['Breite']),
    ...germanForms('lang', ['Länge'], ['lange']),
    ...germanForms('hoh', ['Höhe'], ['hoh']),
    ...germanForms('hoch', ['Höhe'], ['hoche', 'hocher', 'hoches', 'hochen', 'hochem']),
    ...germanForms('gross', ['Größe']),
    ...germanForms('tief', ['Tiefe']),
    ...germanForms('weit', ['Weite']),
  ]),
  fr: new Map([
    ...frenchForms(['epais', 'epaisse', 'epaisses'], ['épaisseur', 'diamètre']),
    ...frenchForms(['large', 'larges'], ['largeur']),
    ...frenchForms(['long', 'longue', 'longs', 'longues'], ['longueur']),
    ...frenchForms(['haut', 'haute', 'hauts', 'hautes'], ['hauteur']),
    ...frenchForms(['grand', 'grande', 'grands', 'grandes'], ['taille', 'dimensions']),
    ...frenchForms(['profond', 'profonde', 'profonds', 'profondes'], ['profondeur']),
  ]),
};

const NONE: readonly string[] = [];

/** The nouns naming the dimension a German or French adjective (as analysed) measures; none for other words and languages. */
export function dimensionNouns(word: string, language: string): readonly string[] {
  return DIMENSION_NOUNS[language]?.get(word) ?? NONE;
}
