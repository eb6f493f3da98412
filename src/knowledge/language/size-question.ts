/**
 * "Wie groß ist das Hochbeet?", "How big is the tent?": the adjective asks for a size, which a
 * product's record gives under a noun ("Maße: 120 x 80 x 80 cm", "Dimensions", "Größe"), not with
 * the adjective. Only after "wie" / "how": "große Auswahl" or "a big thank you" ask for none, which
 * is why "groß" is not among the adjectives of dimension (dimension-words.ts).
 */

/** The phrase that asks for a size, per language (lower case; German "ß" or "ss"). */
const ASKING: Readonly<Record<string, RegExp>> = {
  en: /\bhow (big|large)\b/u,
  de: /\bwie (gro(?:ß|ss)(?:e[nmrs]?)?)(?![\p{L}])/u,
};

/** The nouns records give a size under, per language: a container's is what it holds ("Fassungsvermögen: 100 l"). */
const SIZE_NOUNS: Readonly<Record<string, readonly string[]>> = {
  en: ['size', 'dimensions', 'capacity', 'volume'],
  de: ['größe', 'maße', 'abmessungen', 'fassungsvermögen', 'inhalt'],
};

/** The adjective of `question` (any case) that asks for a size, as typed in lower case; undefined when it asks for none. */
export function askedSizeWord(question: string, language: string): string | undefined {
  return ASKING[language]?.exec(question.toLowerCase())?.[1];
}

/** The nouns that name a size in `language`. */
export function sizeNouns(language: string): readonly string[] {
  return SIZE_NOUNS[language] ?? [];
}
