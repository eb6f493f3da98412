/**
 * English phrasal verbs: "sign up" is not "sign in", "log out" not "log". The particle ("up",
 * "out", "off", "down") is a stop word, so without this "How do I sign up?" met "Sign in with
 * Google" and nothing else of the question told them apart. A particle after a content word is a
 * word of the question that a passage covers only where it writes the verb with that particle
 * ("Sign up at …", "during sign-up", "signing up"), not wherever "up" stands: its pseudo-term
 * (`phraseTerm`) is looked for in a unit's text (answering/units.ts), as a kind of answer is. The
 * index never holds it; retrieval is unchanged.
 *
 * Not "in", "on", "over": mostly prepositions ("ships in 2 days"), and "sign in" is what a bare
 * "sign" meets anyway. Not before "to" ("up to 15 users"), nor after a number.
 *
 * Joined by a hyphen, in any language, the particle is part of a word, "in" too: "Check-in" is not
 * "Check-out" (German reads "in" as a stop word, so "Wann ist Check-in?" met the check-out record).
 * Not "-on": French writes "peut-on".
 */

/** Particles that make a phrasal verb of the content word before them. */
const PARTICLES: ReadonlySet<string> = new Set(['up', 'out', 'off', 'down']);

/** The marker of a phrase's pseudo-term: a control character no real term holds (kinds of answer use \u0001). */
const PHRASE_MARK = '\u0002';

const EMPTY: ReadonlySet<string> = new Set();

/** Particles a hyphen joins to the word before them ("check-in", "drop-off"), in any language. */
const HYPHENED = /(?<![\p{L}\p{N}])(\p{L}+)-(in|out|up|off|down)(?![\p{L}\p{N}-])/giu;

/**
 * The words of `text` that a hyphen joins to a particle, each as "word particle" in the surfaces
 * `surfaceOf` reads ("Check-in" → "check in"); empty, and made at no cost, for most questions.
 */
export function hyphenedParticles(text: string, surfaceOf: (word: string) => string | undefined): ReadonlySet<string> {
  if (!text.includes('-')) return EMPTY;
  const pairs = new Set<string>();
  for (const m of text.matchAll(HYPHENED)) {
    const word = surfaceOf(m[1] as string);
    if (word !== undefined) pairs.add(`${word} ${(m[2] as string).toLowerCase()}`);
  }
  return pairs.size > 0 ? pairs : EMPTY;
}

/**
 * Whether the `i`th of a question's words (a stop word) is the particle of a phrasal verb: in
 * English after a content word, in any language where a hyphen joins them (`hyphened`, from
 * `hyphenedParticles`).
 */
export function isParticle(surfaces: readonly string[], stops: readonly boolean[], i: number, language: string, hyphened: ReadonlySet<string> = EMPTY): boolean {
  if (i === 0 || stops[i - 1] || /^\p{N}+$/u.test(surfaces[i - 1] as string)) return false;
  if (hyphened.has(`${surfaces[i - 1] as string} ${surfaces[i] as string}`)) return true;
  return language === 'en' && PARTICLES.has(surfaces[i] as string) && surfaces[i + 1] !== 'to';
}

/**
 * The pseudo-term of a verb (its surface as typed) with its particle: the verb, less a final "e"
 * or "y" when it is longer than four letters ("shake" of "shaking"), which its forms start with,
 * then the particle.
 */
export function phraseTerm(verb: string, particle: string): string {
  const root = verb.length > 4 && /(?:e|y)$/.test(verb) ? verb.slice(0, -1) : verb;
  return `${PHRASE_MARK}${root} ${particle}`;
}

/** Whether `term` is a phrase's pseudo-term (`phraseTerm`). */
export function isPhraseTerm(term: string): boolean {
  return term.charCodeAt(0) === 2;
}

const patterns = new Map<string, RegExp>();

/**
 * Whether `text` writes the phrase of `term`: the verb in any form, then the particle, apart,
 * hyphened or joined ("sign up", "sign-up", "signing up", "signup"), or after another particle of
 * the verb ("clock in and out").
 */
export function holdsPhrase(text: string, term: string): boolean {
  let re = patterns.get(term);
  if (re === undefined) {
    const [root, particle] = term.slice(1).split(' ') as [string, string];
    re = new RegExp(`(?<![\\p{L}\\p{N}])${root}\\p{L}{0,4}(?:\\s+(?:in|on|up|out|off|down)\\s+(?:and|or|&))?[\\s-]?${particle}(?![\\p{L}\\p{N}])`, 'iu');
    if (patterns.size > 1024) patterns.clear();
    patterns.set(term, re);
  }
  return re.test(text);
}
