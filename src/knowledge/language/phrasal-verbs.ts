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

/** A particle as a word or after a hyphen: the particles above, and "in", which only a hyphen makes one. */
const ANY_PARTICLE_RE = /(?<![\p{L}\p{N}])(?:up|out|off|down|in)(?![\p{L}\p{N}])/iu;

/** Whether `text` may write a phrasal verb (`holdsPhrase`): it has a particle. Cheap, to skip keeping texts that cannot. */
export function mayWritePhrase(text: string): boolean {
  return ANY_PARTICLE_RE.test(text);
}

/** Objects an English phrasal verb takes between itself and its particle ("turn it off", "log me out"). */
const OBJECT_PRONOUNS: ReadonlySet<string> = new Set(['it', 'them', 'me', 'him', 'her', 'us', 'this', 'that']);
/** Words that start a short object between a verb and its particle ("pick my order up", "set the app up"). */
const DETERMINERS: ReadonlySet<string> = new Set(['my', 'your', 'our', 'his', 'her', 'their', 'the', 'a', 'an', 'this', 'that']);

const NUMBER_WORD = /^\p{N}+$/u;

/** The verb "to be" that opens a question about a state: "Is the service down?", "Are the lights off?". */
const COPULAS: ReadonlySet<string> = new Set(['is', 'are', 'was', 'were', 'isnt', 'arent', 'wasnt', 'werent']);
/** Particles that, after "to be" and a noun, say a state whatever follows ("Is the site down right now?"). */
const STATE_PARTICLES: ReadonlySet<string> = new Set(['down', 'off']);

/** Whether the `k`th word is a content word that may be a verb (not a number). */
function contentWord(surfaces: readonly string[], stops: readonly boolean[], k: number): boolean {
  return k >= 0 && k < surfaces.length && !stops[k] && !NUMBER_WORD.test(surfaces[k] as string);
}

/**
 * Where the verb of a phrasal verb is when the `i`th of a question's words (a stop word) is its
 * particle, or undefined when it is none: in English after a content word, or after the short
 * object the verb takes between them, a pronoun or a determiner and a noun ("turn it off", "pick my
 * order up": the verb is "pick", not "order"); in any language where a hyphen joins them
 * (`hyphened`, from `hyphenedParticles`).
 */
export function particleVerb(surfaces: readonly string[], stops: readonly boolean[], i: number, language: string, hyphened: ReadonlySet<string> = EMPTY): number | undefined {
  if (contentWord(surfaces, stops, i - 1) && hyphened.has(`${surfaces[i - 1] as string} ${surfaces[i] as string}`)) return i - 1;
  if (language !== 'en' || !PARTICLES.has(surfaces[i] as string) || surfaces[i + 1] === 'to') return undefined;
  if (DETERMINERS.has(surfaces[i - 2] as string) && contentWord(surfaces, stops, i - 1) && contentWord(surfaces, stops, i - 3)) return i - 3;
  // "Is the service down?", "Is Shiftloom down right now?": after "to be" and a noun, the particle
  // says what state the noun is in; no verb of the question takes it. "up" and "out" with a word
  // after them name a thing: "Is the sign up free?" is about the sign-up.
  const noun = DETERMINERS.has(surfaces[i - 2] as string) ? i - 3 : i - 2;
  const namesThing = STATE_PARTICLES.has(surfaces[i] as string) ? false : contentWord(surfaces, stops, i + 1);
  if (COPULAS.has(surfaces[noun] as string) && contentWord(surfaces, stops, i - 1) && !namesThing) return undefined;
  if (OBJECT_PRONOUNS.has(surfaces[i - 1] as string) && contentWord(surfaces, stops, i - 2)) return i - 2;
  return contentWord(surfaces, stops, i - 1) ? i - 1 : undefined;
}

/** Whether the `i`th of a question's words (a stop word) is the particle of a phrasal verb (`particleVerb`). */
export function isParticle(surfaces: readonly string[], stops: readonly boolean[], i: number, language: string, hyphened: ReadonlySet<string> = EMPTY): boolean {
  return particleVerb(surfaces, stops, i, language, hyphened) !== undefined;
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
