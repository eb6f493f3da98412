/**
 * An acronym the records never write but spell out: "How do I turn on 2FA?" of a help centre whose
 * heading is "Two-factor authentication", "Do you sign a DPA?" of one that writes "data processing
 * agreement". Such an acronym met nothing, so it vetoed the answer as a name the records never
 * mention would (the "CEO"). Where a retrieved record writes words whose initials spell it
 * (a number's word standing for its digit: "two" for "2"; one function word between two of them
 * skipped: "terms of service" for "TOS"), the question is read with those words in its place.
 * Not the parts of a German compound ("AGB", "Allgemeine Geschäftsbedingungen").
 *
 * Looked for at answer time in the retrieved records only, so retrieval must find the record by the
 * rest of the question; the index holds no word sequences to look it up by.
 */
import { numberOfWord } from '../language/number-words.js';
import { STOP_WORDS_BY_LANGUAGE } from '../language/stopwords.js';
import { normalizeFor } from '../retrieval/tokenize.js';
import type { ExpandedQuery, QueryWord } from '../retrieval/query-expansion.js';
import type { RetrievedRecord } from './types.js';

/**
 * An acronym as typed: three to six capitals and digits, at least two of them capitals ("DPA",
 * "2FA"), or in any case letters with a digit ("2fa"). A short word in lower case that met nothing
 * is more often a slip, and some three words of a record start with any three letters.
 */
const ACRONYM_RE = /(?<![\p{L}\p{N}])(?:(?=(?:\p{N}*\p{Lu}){2})[\p{Lu}\p{N}]{3,6}|(?=\p{L}*\p{N})(?=(?:\p{N}*\p{L}){2})[\p{L}\p{N}]{3,6})(?![\p{L}\p{N}])/gu;
const WORD_RE = /[\p{L}\p{N}]+/gu;

/** The question's acronyms, normalised as its words are. */
function acronymsIn(query: string, language: string): ReadonlySet<string> {
  return new Set((query.match(ACRONYM_RE) ?? []).map((a) => normalizeFor(a, language)));
}

/** Whether `word` (normalised) stands for `initial`: starts with the letter, or is the digit or its number word. */
function standsFor(word: string, initial: string, language: string): boolean {
  if (initial >= '0' && initial <= '9') return word === initial || String(numberOfWord(word, language)) === initial;
  return word.startsWith(initial);
}

/** The words of `text` whose initials spell `acronym`, as written there; undefined when none do. */
export function spelledOut(acronym: string, text: string, language: string): string | undefined {
  const stops = STOP_WORDS_BY_LANGUAGE[language];
  const words = normalizeFor(text, language).match(WORD_RE) ?? [];
  for (let start = 0; start + acronym.length <= words.length; start++) {
    if (stops?.has(words[start] as string) || !standsFor(words[start] as string, acronym[0] as string, language)) continue;
    const taken = [words[start] as string];
    // The next initials, each from the next word, past one function word that stands for none ("terms of service").
    let skipped = 0;
    for (let at = start + 1; taken.length < acronym.length && at < words.length; at++) {
      const word = words[at] as string;
      // A function word may stand for an inner initial ("of" in "terms of service"), not for the last.
      const last = taken.length === acronym.length - 1;
      if (standsFor(word, acronym[taken.length] as string, language) && !(last && stops?.has(word))) {
        taken.push(word);
        skipped = 0;
      } else if (stops?.has(word) && skipped === 0) skipped++;
      else break;
    }
    if (taken.length === acronym.length) return taken.join(' ');
  }
  return undefined;
}

/**
 * `expanded` with each acronym of `query` that met nothing and that a retrieved record spells out
 * replaced by the words it stands for, as `expand` reads them; `expanded` itself when there is none.
 */
export function withAcronymsSpelledOut(query: string, expanded: ExpandedQuery, records: readonly RetrievedRecord[], expand: (text: string) => ExpandedQuery): ExpandedQuery {
  const { language } = expanded;
  const unmet = (w: QueryWord, acronyms: ReadonlySet<string>) => w.matches.length === 0 && acronyms.has(w.surface);
  if (!expanded.words.some((w) => w.matches.length === 0)) return expanded;
  const acronyms = acronymsIn(query, language);
  if (!expanded.words.some((w) => unmet(w, acronyms))) return expanded;
  const words = expanded.words.flatMap((w) => {
    if (!unmet(w, acronyms)) return [w];
    for (const r of records) {
      const spelled = spelledOut(w.surface, `${r.title ?? ''}\n${r.text}`, language);
      if (spelled !== undefined) return expand(spelled).words;
    }
    return [w];
  });
  return words.length === expanded.words.length && words.every((w, i) => w === expanded.words[i]) ? expanded : { ...expanded, words };
}
