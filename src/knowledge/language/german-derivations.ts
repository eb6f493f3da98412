/**
 * German words that are one another's forms but share no ending a stemmer or the variant endings
 * could find: a noun made from a verb by a change of vowel ("Rückgabe" / "zurückgeben", "Rücknahme"
 * / "zurücknehmen", "Ankunft" / "ankommen"), "rück-" in a noun where the verb has "zurück-"
 * ("Rückerstattung" / "zurückerstatten"), and the "zu" of an infinitive inside a separable verb
 * ("zurückzugeben" / "zurückgeben", "anzumelden" / "anmelden"). Words are as the tokenizer folds
 * them (lower case, "ü" as "ue", "ß" as "ss").
 */

/** Noun endings and the verb endings they come from, by a change of vowel. */
const NOUN_VERB: readonly (readonly [noun: string, verb: string])[] = [
  ['gabe', 'geben'],
  ['nahme', 'nehmen'],
  ['kunft', 'kommen'],
  ['tritt', 'treten'],
  ['schluss', 'schliessen'],
  ['griff', 'greifen'],
  ['fahrt', 'fahren'],
  ['bruch', 'brechen'],
  ['wurf', 'werfen'],
  ['sprache', 'sprechen'],
  ['schrift', 'schreiben'],
  ['zug', 'ziehen'],
  ['flug', 'fliegen'],
];

/** Separable prefixes after which an infinitive's "zu" stands ("zurück-zu-geben"). */
const SEPARABLE = ['zurueck', 'weiter', 'zusammen', 'nach', 'vor', 'aus', 'ein', 'auf', 'ab', 'an', 'bei', 'mit', 'weg', 'um', 'zu', 'her', 'hin', 'los', 'frei', 'fest'];

/** A stem left of an ending must be this long ("ab" + "gabe" is a word, "gabe" alone is the noun itself). */
const MIN_STEM = 2;

function withoutInfinitiveZu(word: string): string | undefined {
  for (const prefix of SEPARABLE) {
    if (word.startsWith(`${prefix}zu`) && word.length >= prefix.length + 2 + 4 && word.endsWith('en')) return prefix + word.slice(prefix.length + 2);
  }
  return undefined;
}

function swappedRueck(word: string): string | undefined {
  if (word.startsWith('zurueck')) return word.slice(2);
  if (word.startsWith('rueck')) return `zu${word}`;
  return undefined;
}

function nounOrVerb(word: string): string | undefined {
  for (const [noun, verb] of NOUN_VERB) {
    if (word.endsWith(noun) && word.length >= noun.length + MIN_STEM) return word.slice(0, -noun.length) + verb;
    if (word.endsWith(verb) && word.length >= verb.length + MIN_STEM) return word.slice(0, -verb.length) + noun;
  }
  return undefined;
}

/** The other forms of a folded German word by the rules above (not the word itself), each at most once. */
export function germanRelatives(word: string): string[] {
  const out = new Set<string>();
  const base = withoutInfinitiveZu(word) ?? word;
  if (base !== word) out.add(base);
  const changed = nounOrVerb(base);
  for (const form of [base, changed]) {
    if (form === undefined) continue;
    if (form !== word) out.add(form);
    const swapped = swappedRueck(form);
    if (swapped !== undefined && swapped !== word) out.add(swapped);
  }
  return [...out];
}
