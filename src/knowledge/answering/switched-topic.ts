/**
 * A follow-up fragment that asks the same of something else: "und die Abendkurse?" after "Wann
 * fangen die Intensivkurse an?", "and the evening courses?" after "When do the intensive courses
 * start?", "et les cours du soir ?" after "Quand commencent les cours intensifs ?". Asked together
 * with the earlier question, the word it replaces ("Intensivkurse", "intensive") still pulled the
 * search and the answer toward the intensive courses. The replaced word is left out of the context:
 *
 * - a word with the same end as one of the fragment's, another kind of the same thing: German
 *   compounds of one head ("Intensivkurse" / "Abendkurse", "Versandkosten" / "Rücksendekosten");
 * - the word that qualifies a noun the fragment repeats with a word of its own, on the side the
 *   fragment qualifies it ("intensive courses" / "evening courses", "cours intensifs" / "cours du
 *   soir").
 *
 * Only for a fragment that starts as a follow-up ("and", "und", "et", "what about"…), of a few words.
 */
import { STOP_WORDS_BY_LANGUAGE } from '../language/stopwords.js';
import { normalizeFor } from '../retrieval/tokenize.js';

/** The most words a fragment has for this to apply ("und die Abendkurse?", "and for the evening courses?"). */
const FRAGMENT_WORDS = 5;
/** The shortest shared end that makes two words kinds of one thing ("kurse", "kosten"). */
const MIN_SHARED_END = 5;
/** The shortest part before the shared end, in each word ("abend" of "Abendkurse"). */
const MIN_OWN_START = 3;
/** The shortest word that may be replaced or replace one. */
const MIN_WORD = 3;

const WORD_RE = /\p{L}[\p{L}\p{M}-]*/gu;
const STOP_LISTS = ['en', 'de', 'fr'] as const;

interface Word {
  text: string;
  start: number;
  key: string;
  content: boolean;
}

function wordsOf(text: string): Word[] {
  return [...text.matchAll(WORD_RE)].map((m) => {
    const written = m[0];
    const key = written.toLowerCase();
    const content = key.length >= MIN_WORD && !STOP_LISTS.some((language) => STOP_WORDS_BY_LANGUAGE[language]?.has(normalizeFor(key, language)) === true);
    return { text: written, start: m.index, key, content };
  });
}

function sharedEnd(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/** Whether `a` and `b` are two kinds of one thing by their shared end ("intensivkurse" / "abendkurse"). */
function siblings(a: string, b: string): boolean {
  if (a === b) return false;
  const shared = sharedEnd(a, b);
  return shared >= MIN_SHARED_END && a.length - shared >= MIN_OWN_START && b.length - shared >= MIN_OWN_START;
}

/**
 * `context` without the words `fragment` replaces (above); `context` itself when it replaces none
 * or is not such a fragment (`leads` tells whether it starts as a follow-up).
 */
export function withoutReplacedWords(context: string, fragment: string, leads: boolean): string {
  if (!leads) return context;
  const asked = wordsOf(fragment);
  if (asked.length > FRAGMENT_WORDS) return context;
  const own = asked.filter((w) => w.content);
  if (own.length === 0) return context;
  const words = wordsOf(context);
  const ownKeys = new Set(own.map((w) => w.key));
  const drop = new Set<number>();
  for (const [i, word] of words.entries()) {
    if (word.content && !ownKeys.has(word.key) && own.some((w) => siblings(word.key, w.key))) drop.add(i);
  }
  // A noun the fragment repeats, qualified by a word of its own on one side: the context's word on that side goes.
  for (const [k, repeated] of own.entries()) {
    const before = k > 0;
    const after = k < own.length - 1;
    if (!before && !after) continue;
    for (const [j, word] of words.entries()) {
      if (word.key !== repeated.key) continue;
      for (const side of [before ? j - 1 : -1, after ? j + 1 : -1]) {
        const neighbour = words[side];
        if (neighbour !== undefined && neighbour.content && !ownKeys.has(neighbour.key)) drop.add(side);
      }
    }
  }
  if (drop.size === 0) return context;
  let out = '';
  let at = 0;
  for (const i of [...drop].sort((a, b) => a - b)) {
    const word = words[i] as Word;
    out += context.slice(at, word.start);
    at = word.start + word.text.length;
  }
  return (out + context.slice(at)).replace(/\s{2,}/gu, ' ');
}
