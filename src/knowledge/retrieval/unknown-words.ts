/**
 * The words of a question that no record uses: what the usage report shows beside an unanswered
 * question, so the owner sees why it went unanswered ("Was kostet das Porto?": "Porto") and can
 * add a record or a synonym (knowledge/synonyms.ts). A content word of the question that no record
 * writes in any form or spelling and that no synonym of the owner's links to one that does; not one
 * of the language's commonest words ("without", "made", "back"), which are rarely why a question
 * goes unanswered and would bury the word that is.
 */
import { isAnswerTypeTerm } from '../language/answer-types.js';
import { commonRank } from '../language/common-words.js';
import type { ExpandedQuery, QueryWord } from './query-expansion.js';
import { analyzeWords } from './tokenize.js';

/** Words among this many of the language's commonest are not shown. */
const COMMONEST = 500;

/**
 * Whether a word is among the language's commonest ("without", "made", "back"): rarely why a
 * question went unanswered, and no sign of what a record is about.
 */
export function amongCommonest(surface: string, language: string): boolean {
  return (commonRank(surface, language) ?? Number.POSITIVE_INFINITY) <= COMMONEST;
}

/** A word as the visitor may write it: letters and digits, with inner apostrophes or hyphens. */
const TYPED_WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** A match at least this good is the records' own word or the owner's synonym; related words count for less (term-matches.ts). */
export const OWN_WORD_CREDIT = 0.8;

/**
 * Whether the records use the word: as written, in another form, in a compound or misspelt; or the
 * owner says it means one of theirs (a synonym meets at full credit). A related word the answerer
 * found for it (WordNet, the place a town is in) is its guess, not the records' word: "Mars" meets
 * "damage" (to mar) and "Jupiter" a town in Florida, in the United States.
 */
function usedByRecords(w: QueryWord): boolean {
  if (w.matches.length === 0) return false;
  return w.via !== 'related' || w.matches.some((m) => m.credit >= OWN_WORD_CREDIT);
}

/** The words of `question` (expanded as `expanded`) that no record uses, as typed, in question order, each once. */
export function wordsNoRecordUses(question: string, expanded: ExpandedQuery): string[] {
  const unknown = new Set<string>();
  for (const w of expanded.words) {
    if (usedByRecords(w) || isAnswerTypeTerm(w.term)) continue;
    if (amongCommonest(w.surface, expanded.language)) continue;
    unknown.add(w.surface);
  }
  if (unknown.size === 0) return [];
  // As typed ("Dänemark", not the analysis's "daenemark"); a place of several words as analysed.
  const out: string[] = [];
  const shown = new Set<string>();
  for (const typed of question.match(TYPED_WORD) ?? []) {
    // A word written with a hyphen is analysed as its parts: shown whole, as typed, when a part is
    // unknown ("gift-wrap", not "gift-wrap, wrap" nor a bare "wrap").
    const { surfaces } = analyzeWords(typed, expanded.language, 'query');
    if (!surfaces.some((surface) => unknown.has(surface) && !shown.has(surface))) continue;
    for (const surface of surfaces) shown.add(surface);
    out.push(typed);
  }
  for (const surface of unknown) if (!shown.has(surface)) out.push(surface);
  return out;
}
