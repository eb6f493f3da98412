/**
 * Names of several capitalised words that no record writes ("Do you integrate with Microsoft
 * Teams?" of a help centre that has "Sign in with Microsoft" and "the Team plan"): each of their
 * words may be the records', yet the name is something they never mention. The question's words
 * come marked with the name they are part of (`QueryWord.phrase`, retrieval/query-expansion.ts);
 * here the retrieved records are read for it, and the words of an unknown name are unmatched.
 * And acronyms no record has in any form ("Are your pans PFAS-free?"): see `namesUnknownAcronym`.
 */
import type { QueryWord } from '../retrieval/query-expansion.js';
import { analyzeWords, normalizeFor } from '../retrieval/tokenize.js';
import type { RetrievedRecord } from './types.js';

/** Words a name of several words may have between its own in a record ("Glass [Cone] Dripper"). */
const NAME_GAP = 2;

/**
 * The names of several words in the question (`QueryWord.phrase`) that no retrieved record writes:
 * their words in order, at most `NAME_GAP` words apart, as the records' terms ("Cast Iron Casserole"
 * in "Cast-iron casseroles", "Glass Dripper" in "Glass Cone Dripper"). Undefined when there are none.
 */
export function unknownNames(records: readonly RetrievedRecord[], words: readonly QueryWord[], language: string): ReadonlySet<string> | undefined {
  const phrases = new Set<string>();
  for (const w of words) if (w.phrase !== undefined) phrases.add(w.phrase);
  if (phrases.size === 0) return undefined;
  const texts = records.map((r) => analyzeWords(`${r.title ?? ''}\n${r.text}`, language, 'query').terms);
  const unknown = new Set<string>();
  for (const phrase of phrases) {
    const terms = analyzeWords(phrase, language, 'query').terms;
    if (!texts.some((text) => hasInOrder(text, terms))) unknown.add(phrase);
  }
  return unknown.size > 0 ? unknown : undefined;
}

/** Whether `terms` occur in `text` in order, each at most `NAME_GAP` terms after the one before. */
function hasInOrder(text: readonly string[], terms: readonly string[]): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== terms[0]) continue;
    let at = i;
    let k = 1;
    for (; k < terms.length; k++) {
      let next = -1;
      for (let j = at + 1; j < text.length && j <= at + 1 + NAME_GAP; j++) {
        if (text[j] === terms[k]) {
          next = j;
          break;
        }
      }
      if (next < 0) break;
      at = next;
    }
    if (k === terms.length) return true;
  }
  return false;
}

const NO_MATCHES: QueryWord['matches'] = [];

/**
 * The share of the matched words' weight (`weights` of `words`) that still counts, by `counts(i)`:
 * what retrieval's score of a record is worth once some of the words it scored do not count
 * (the words of an unknown name, a place the record leaves out).
 */
export function matchedShare(words: readonly QueryWord[], weights: readonly number[], counts: (i: number) => boolean): number {
  let kept = 0;
  let all = 0;
  for (let i = 0; i < words.length; i++) {
    if ((words[i] as QueryWord).matches.length === 0) continue;
    all += weights[i] as number;
    if (counts(i)) kept += weights[i] as number;
  }
  return all > 0 ? kept / all : 1;
}

/**
 * `words` with the words of the `unknown` names unmatched, as the name of anything else the
 * records never mention is ("Do you integrate with Microsoft Teams?" of a help centre that has
 * "Sign in with Microsoft" and "the Team plan").
 */
export function withUnknownNames(words: readonly QueryWord[], unknown: ReadonlySet<string>): readonly QueryWord[] {
  return words.map((w) => (w.phrase !== undefined && unknown.has(w.phrase) ? { ...w, matches: NO_MATCHES, via: 'none' } : w));
}

/** A word of three or more capitals and nothing else ("PFAS", "GDPR", "CEO"; not "E64" nor "Wien"). */
const ACRONYM_RE = /(?<![\p{L}\p{N}])\p{Lu}{3,}(?![\p{L}\p{N}])/gu;
const WORD_RE = /\p{L}+/gu;
/** A question with more words in capitals than this share is typed with caps lock: its capitals name nothing. */
const SHOUTED_SHARE = 0.5;

/**
 * Whether the question names, by an acronym, something no record mentions: an acronym whose word
 * the knowledge base matches in no form (not as written, as a place, a card network, a slip or a
 * related word: `words` as expanded). "Are your non-stick pans PFAS-free?" asks about a thing the
 * shop's records never name, though "non-stick pans" meet a record squarely; the "CEO" is
 * such a name. Acronyms that are chat words ("ASAP") are spelled out before (language/chat-speak.ts).
 */
export function namesUnknownAcronym(query: string, words: readonly QueryWord[], language: string): boolean {
  const acronyms = query.match(ACRONYM_RE);
  if (acronyms === null) return false;
  if (acronyms.length > SHOUTED_SHARE * (query.match(WORD_RE)?.length ?? 0)) return false;
  return acronyms.some((acronym) => {
    const surface = normalizeFor(acronym, language);
    return words.some((w) => w.surface === surface && w.matches.length === 0);
  });
}
