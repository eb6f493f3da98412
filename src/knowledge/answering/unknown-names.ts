/**
 * Names of several capitalised words that no record writes ("Do you integrate with Microsoft
 * Teams?" of a help centre that has "Sign in with Microsoft" and "the Team plan"): each of their
 * words may be the records', yet the name is something they never mention. The question's words
 * come marked with the name they are part of (`QueryWord.phrase`, retrieval/query-expansion.ts);
 * here the retrieved records are read for it, and the words of an unknown name are unmatched.
 */
import type { QueryWord } from '../retrieval/query-expansion.js';
import { analyzeWords } from '../retrieval/tokenize.js';
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

/** The share of the matched words' weight (`weights` of `before`) that `after`'s words still match. */
export function matchedShare(after: readonly QueryWord[], weights: readonly number[], before: readonly QueryWord[]): number {
  let kept = 0;
  let all = 0;
  for (let i = 0; i < before.length; i++) {
    if ((before[i] as QueryWord).matches.length === 0) continue;
    all += weights[i] as number;
    if ((after[i] as QueryWord).matches.length > 0) kept += weights[i] as number;
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
