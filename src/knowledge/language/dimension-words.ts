/**
 * German and French adjectives of a dimension and the nouns that name it, so that "Wie dick ist
 * der Schlauch?" meets "Durchmesser: 1/2 Zoll" and "Elle est large de combien ?" meets "Largeur :
 * 70 cm", though the question never names the field. English has these links from WordNet's
 * attributes (related-words.ts: "heavy" → weight, "wide" → width); no WordNet for German or
 * French ships on npm, and the adjectives of dimension are a small closed class, so they are listed.
 *
 * Keys are question words as the analysis writes them (lower case; German umlauts as "ae", "oe",
 * "ue" and "ß" as "ss"; French without accents). Only adjectives that ask for the dimension when a
 * visitor uses them: not those that more often say something else, since a match for a field word
 * makes a product without that field one "asked for what it lacks" (answering/plan.ts) — "Wie hoch
 * ist der Preis?" asks for a price, not a height; "wie weit" for progress, "wie lang(e)" and "c'est
 * long ?" for a duration (answer-types.ts), "groß", "grand" for much besides size ("große Auswahl",
 * "un grand merci"), "en haut" for upstairs. The weight adjectives ask for a weight (answer-types.ts).
 */

import type { RelatedWord } from './related-words.js';

const GERMAN_ENDINGS = ['', 'e', 'er', 'es', 'en', 'em'];

/**
 * The nouns as related words of the attribute relation, shared by every form of the adjective (read
 * them, never change them). `compounding` nouns also meet the compounds that end with them
 * ("Breite" / "Schnittbreite"); the others only themselves: "Stärke" is the thickness of "Stärke:
 * 2 mm", but "Lautstärke" is loudness and "Saugstärke" suction.
 */
function attributes(compounding: readonly string[], alone: readonly string[] = []): readonly RelatedWord[] {
  const word = (noun: string, endsCompounds: boolean): RelatedWord => Object.freeze({ lemma: noun.toLowerCase(), relation: 'attribute' as const, endsCompounds });
  return Object.freeze([...compounding.map((noun) => word(noun, true)), ...alone.map((noun) => word(noun, false))]);
}

function germanForms(base: string, compounding: readonly string[], alone?: readonly string[]): [string, readonly RelatedWord[]][] {
  const related = attributes(compounding, alone);
  return GERMAN_ENDINGS.map((ending) => [base + ending, related]);
}

function frenchForms(forms: readonly string[], nouns: readonly string[]): [string, readonly RelatedWord[]][] {
  const related = attributes(nouns);
  return forms.map((form) => [form, related]);
}

const DIMENSION_NOUNS: Readonly<Record<string, ReadonlyMap<string, readonly RelatedWord[]>>> = {
  de: new Map([...germanForms('dick', ['Dicke', 'Durchmesser'], ['Stärke']), ...germanForms('breit', ['Breite']), ...germanForms('tief', ['Tiefe'])]),
  fr: new Map([
    ...frenchForms(['epais', 'epaisse', 'epaisses'], ['épaisseur', 'diamètre']),
    ...frenchForms(['large', 'larges'], ['largeur']),
    ...frenchForms(['profond', 'profonde', 'profonds', 'profondes'], ['profondeur']),
  ]),
};

const NONE: readonly RelatedWord[] = Object.freeze([]);

/** The nouns naming the dimension a German or French adjective (as analysed) measures, as attributes; none for other words and languages. */
export function dimensionWords(word: string, language: string): readonly RelatedWord[] {
  return DIMENSION_NOUNS[language]?.get(word) ?? NONE;
}
