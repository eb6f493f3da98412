/**
 * Keywords and key phrases by term frequency. Words are lower-cased and Porter-stemmed so that
 * "battery" and "batteries" count together (shown in their most frequent spelling); English stop
 * words never count. Key phrases are 2–4 consecutive content words, never across a stop word or
 * punctuation (the RAKE idea), that occur at least twice, scored by how often they occur and how frequent
 * their words are.
 */
import { notEnglishWarning } from '../shared/ai-language.js';
import { isContentWord, normaliseWord, round, stem, wordRuns, words } from '../shared/ai-text.js';

export interface KeywordsInput {
  text: string;
  limit?: number;
}

export interface Keyword {
  term: string;
  count: number;
  /** Share of the text's content words. */
  score: number;
}

export interface KeyPhrase {
  phrase: string;
  count: number;
  score: number;
}

export interface KeywordsOutput {
  keywords: Keyword[];
  phrases: KeyPhrase[];
  note?: string;
  warnings?: string[];
}

/** Below this, frequencies are all 1 or 2 and say nothing about the topic. */
export const minWords = 20;
const maxPhraseWords = 4;

interface Tally {
  count: number;
  first: number;
  spellings: Map<string, number>;
}

function tally(map: Map<string, Tally>, key: string, spelling: string, position: number): void {
  const entry = map.get(key) ?? { count: 0, first: position, spellings: new Map<string, number>() };
  entry.count++;
  entry.spellings.set(spelling, (entry.spellings.get(spelling) ?? 0) + 1);
  map.set(key, entry);
}

function commonest(spellings: Map<string, number>): string {
  let best = '';
  let bestCount = 0;
  for (const [spelling, count] of spellings) if (count > bestCount) [best, bestCount] = [spelling, count];
  return best;
}

/** Every 2–4-word stretch of a run: "install solar panels" → "install solar", "solar panels", all three. */
function nGrams(run: string[]): string[][] {
  const out: string[][] = [];
  for (let start = 0; start < run.length; start++) {
    for (let size = 2; size <= maxPhraseWords && start + size <= run.length; size++) out.push(run.slice(start, start + size));
  }
  return out;
}

/** Content-word runs split at stop words: "the price of solar panels" → ["price"], ["solar", "panels"]. */
function contentRuns(text: string): string[][] {
  const out: string[][] = [];
  for (const run of wordRuns(text)) {
    let current: string[] = [];
    for (const word of run.map(normaliseWord)) {
      if (isContentWord(word)) current.push(word);
      else {
        if (current.length) out.push(current);
        current = [];
      }
    }
    if (current.length) out.push(current);
  }
  return out;
}

export function run(input: KeywordsInput): KeywordsOutput {
  const limit = input.limit ?? 10;
  const all = words(input.text).map(normaliseWord);
  if (all.length < minWords) {
    return { keywords: [], phrases: [], note: `The text has ${all.length} words; keyword extraction needs at least ${minWords} to find anything meaningful.` };
  }
  const terms = new Map<string, Tally>();
  all.filter(isContentWord).forEach((word, i) => tally(terms, stem(word), word, i));
  const contentCount = [...terms.values()].reduce((sum, t) => sum + t.count, 0);
  const termScore = (key: string) => (terms.get(key)?.count ?? 0) / contentCount;
  const byScore = <T extends { count: number; first: number }>(a: [string, T], b: [string, T]) => b[1].count - a[1].count || a[1].first - b[1].first;

  const keywords = [...terms.entries()]
    .sort(byScore)
    .slice(0, limit)
    .map(([key, t]) => ({ term: commonest(t.spellings), count: t.count, score: round(termScore(key)) }));

  const phraseTallies = new Map<string, Tally>();
  contentRuns(input.text).flatMap(nGrams).forEach((phrase, i) => tally(phraseTallies, phrase.map(stem).join(' '), phrase.join(' '), i));
  const phrases = [...phraseTallies.entries()]
    .filter(([, t]) => t.count >= 2)
    .map(([key, t]) => ({ phrase: commonest(t.spellings), count: t.count, first: t.first, score: round(t.count * key.split(' ').reduce((sum, k) => sum + termScore(k), 0)) }))
    .sort((a, b) => b.score - a.score || a.first - b.first)
    .slice(0, limit)
    .map(({ phrase, count, score }) => ({ phrase, count, score }));

  const output: KeywordsOutput = { keywords, phrases };
  const warning = notEnglishWarning(input.text, 'the stop-word list and stemmer');
  if (warning) output.warnings = [warning];
  return output;
}
