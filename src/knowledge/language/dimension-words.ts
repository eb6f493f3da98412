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
 * makes a product without that field one "asked for what it lacks" (answering/product-selection.ts) — "Wie hoch
 * ist der Preis?" asks for a price, not a height; "wie weit" for progress, "wie lang(e)" and "c'est
 * long ?" for a duration (answer-types.ts), "groß", "grand" for much besides size ("große Auswahl",
 * "un grand merci"; "Wie groß ist …?" asks for one: size-question.ts), "en haut" for upstairs. The
 * weight adjectives ask for a weight (answer-types.ts).
 *
 * Also the verbs of weighing with the noun of what they measure, in English too (`WEIGHING_VERBS`).
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

function listedForms(forms: readonly string[], nouns: readonly string[]): [string, readonly RelatedWord[]][] {
  const related = attributes(nouns);
  return forms.map((form) => [form, related]);
}

/**
 * The compounds of "Stärke" that name a thickness ("Schnittstärke: bis 45 mm", the thickest branch
 * a lopper cuts; "Wandstärke", "Materialstärke"), listed: most compounds of it name a strength
 * ("Lautstärke", "Saugstärke", "Leuchtstärke"), so the noun does not meet its compounds.
 */
const THICKNESS_STRENGTHS = ['Schnittstärke', 'Wandstärke', 'Materialstärke', 'Blechstärke', 'Drahtstärke', 'Plattenstärke', 'Glasstärke', 'Folienstärke', 'Brettstärke'];

const DIMENSION_NOUNS: Readonly<Record<string, ReadonlyMap<string, readonly RelatedWord[]>>> = {
  de: new Map([...germanForms('dick', ['Dicke', 'Durchmesser'], ['Stärke', ...THICKNESS_STRENGTHS]), ...germanForms('breit', ['Breite']), ...germanForms('tief', ['Tiefe'])]),
  fr: new Map([
    ...listedForms(['epais', 'epaisse', 'epaisses'], ['épaisseur', 'diamètre']),
    ...listedForms(['large', 'larges'], ['largeur']),
    ...listedForms(['profond', 'profonde', 'profonds', 'profondes'], ['profondeur']),
  ]),
};

/**
 * The verb of weighing and the noun of the quantity it measures, in every language with an
 * analyser: "What does the E48 weigh?" asks for its "Weight: 3.1 kg", not for "Hopper capacity:
 * 250 g", which holds a weight too. WordNet links "weigh" to no noun "weight" (its "have a certain
 * weight" sense has no derivation), and the stemmers keep "weigh" and "weight" apart.
 */
const WEIGHING_VERBS: Readonly<Record<string, ReadonlyMap<string, readonly RelatedWord[]>>> = {
  en: new Map(listedForms(['weigh', 'weighs', 'weighed', 'weighing'], ['weight'])),
  de: new Map(listedForms(['wiegt', 'wiegen', 'wiegst', 'wog'], ['Gewicht'])),
  fr: new Map(listedForms(['pese', 'pesent', 'peser', 'pesera', 'peseront'], ['poids'])),
};

const NONE: readonly RelatedWord[] = Object.freeze([]);

/**
 * An English adjective of what a thing keeps out ("waterproof", "windproof", "shockproof") and the
 * field a catalogue gives it under: "Is the head torch waterproof?" is answered by "Water
 * resistance: IPX7". WordNet links "waterproof" to "rainproof" and "raincoat", never to water
 * resistance. The phrase matches only where the records write both its words (word-meanings.ts).
 */
const PROOF_RE = /^(\p{L}{3,})proof(?:ed)?$/u;

/** The fields of what an English "…proof" adjective keeps out; made per call, as `relatedWords` remembers its answer per word. */
function resistanceWords(word: string): readonly RelatedWord[] {
  const what = PROOF_RE.exec(word)?.[1];
  if (what === undefined) return NONE;
  return [`${what} resistance`, `${what} resistant`].map((lemma): RelatedWord => ({ lemma, relation: 'attribute' }));
}

/**
 * The nouns naming the dimension a German or French adjective (as analysed) measures, the quantity
 * a verb of weighing measures (in English too), or the field of what an English "…proof" adjective
 * keeps out, as attributes; none for other words.
 */
export function dimensionWords(word: string, language: string): readonly RelatedWord[] {
  const listed = DIMENSION_NOUNS[language]?.get(word) ?? WEIGHING_VERBS[language]?.get(word);
  if (listed !== undefined) return listed;
  return language === 'en' ? resistanceWords(word) : NONE;
}
