/**
 * Umlauts typed without their dots. The analysis chain writes "ä", "ö", "ü" as "ae", "oe", "ue"
 * (so "Küche" and "Kueche" are one word); a visitor in a hurry often types neither: "kuche",
 * "konnen", "fur", "uber". These helpers give a folded word's form without the umlauts' "e".
 */

/** A consonant (or the word's start), then "ae", "oe" or "ue" (not "eue", "aue", "que"): an umlaut typed as two letters. */
const UMLAUT_DIGRAPH_RE = /(^|[b-df-hj-npr-tv-z])([aou])e/g;
/** The same after a consonant only: inside a stem ("vertraeg"), where a word's start is never one. */
const INNER_UMLAUT_DIGRAPH_RE = /([b-df-hj-npr-tv-z])([aou])e/g;

/** `word` (folded, umlauts as "ae", "oe", "ue") with every umlaut typed as its bare vowel ("muessen" → "mussen", "ueber" → "uber"). */
export function withoutUmlautDots(word: string): string {
  return word.includes('e') ? word.replace(UMLAUT_DIGRAPH_RE, '$1$2') : word;
}

/** A stem's umlauts after a consonant as bare vowels ("vertraeg" → "vertrag"); "teuer", "Dauer", "Quelle" keep theirs. */
export function withoutInnerUmlautDots(stem: string): string {
  return stem.includes('e') ? stem.replace(INNER_UMLAUT_DIGRAPH_RE, '$1$2') : stem;
}

/**
 * `words` and, for each holding an umlaut, its form typed without the dots, which says as much
 * ("fur" is "für", "konnen" is "können"). A form that is itself listed is left as listed.
 */
export function withUndottedForms<T>(entries: Iterable<[string, T]>): Map<string, T> {
  const out = new Map<string, T>(entries);
  for (const [word, value] of [...out]) {
    const bare = withoutUmlautDots(word);
    if (bare !== word && !out.has(bare)) out.set(bare, value);
  }
  return out;
}
