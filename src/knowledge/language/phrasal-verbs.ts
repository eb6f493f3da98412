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
 */

/** Particles that make a phrasal verb of the content word before them. */
const PARTICLES: ReadonlySet<string> = new Set(['up', 'out', 'off', 'down']);

/** The marker of a phrase's pseudo-term: a control character no real term holds (kinds of answer use \u0001). */
const PHRASE_MARK = '\u0002';

/** Whether the `i`th of a question's words (a stop word) is the particle of an English phrasal verb. */
export function isParticle(surfaces: readonly string[], stops: readonly boolean[], i: number, language: string): boolean {
  if (language !== 'en' || i === 0 || stops[i - 1] || /^\p{N}+$/u.test(surfaces[i - 1] as string)) return false;
  return PARTICLES.has(surfaces[i] as string) && surfaces[i + 1] !== 'to';
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
