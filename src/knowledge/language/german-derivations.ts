/**
 * German words that are one another's forms but share no ending a stemmer or the variant endings
 * could find: a noun made from a verb by a change of vowel ("Rückgabe" / "zurückgeben", "Rücknahme"
 * / "zurücknehmen", "Ankunft" / "ankommen"), "rück-" in a noun where the verb has "zurück-"
 * ("Rückerstattung" / "zurückerstatten"), and the "zu" of an infinitive inside a separable verb
 * ("zurückzugeben" / "zurückgeben", "anzumelden" / "anmelden"), and a person as sites name all genders
 * ("Teilnehmende", "Studierende") and as visitors write ("Teilnehmer", "Studenten"). Words are as
 * the tokenizer folds them (lower case, "ü" as "ue", "ß" as "ss").
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

/** A person's noun made of a present participle and the noun it is written for; the stem left of either must be this long. */
const MIN_PERSON_STEM = 3;

/**
 * A person named by the present participle, as sites write for all genders ("Teilnehmende",
 * "Studierende", "Lehrende"), and by the noun visitors write ("Teilnehmer", "Studenten", "Lehrer"),
 * either way; and a plural in "-innen" and the plain one ("Kundinnen" / "Kunden"). "-ierende" is
 * "-ent" ("Studierende" / "Student"). Only forms the knowledge base holds are met, so a word that
 * merely ends so ("Wochenende") meets nothing.
 */
function personForms(word: string): string[] {
  const stem = (ending: string) => (word.endsWith(ending) && word.length >= ending.length + MIN_PERSON_STEM ? word.slice(0, -ending.length) : undefined);
  for (const ending of ['ierende', 'ierenden', 'ierender']) {
    const s = stem(ending);
    if (s !== undefined) return [`${s}ent`, `${s}enten`];
  }
  for (const ending of ['ende', 'enden', 'ender']) {
    const s = stem(ending);
    if (s !== undefined) return [`${s}er`, `${s}ern`];
  }
  for (const ending of ['ent', 'enten']) {
    const s = stem(ending);
    if (s !== undefined) return [`${s}ierende`, `${s}ierenden`];
  }
  for (const ending of ['er', 'ern']) {
    const s = stem(ending);
    if (s !== undefined) return [`${s}ende`, `${s}enden`];
  }
  const plain = stem('innen');
  return plain === undefined ? [] : [plain, `${plain}en`, `${plain}n`];
}

/** The other forms of a folded German word by the rules above (not the word itself), each at most once. */
export function germanRelatives(word: string): string[] {
  const out = new Set<string>(personForms(word));
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
