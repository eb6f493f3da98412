/**
 * Text splitting shared by the text-analysis tools: Unicode word and sentence boundaries
 * (Intl.Segmenter, so it runs the same in Node and in browsers), and the normalised "terms"
 * (lower case, stop words dropped, Porter-stemmed) that keywords, summaries and similarity compare.
 */
import { stemmer } from 'stemmer';
import { englishStopWords } from './ai-stopwords.js';
import { segments } from './segments.js';

const graphemeSegmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });
const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

export interface Sentence {
  /** Position among the text's sentences, from 0. */
  index: number;
  text: string;
}

/** Characters as people count them: grapheme clusters, so 👋🏽 and é (e + accent) are one each. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of segments(graphemeSegmenter, text)) count++;
  return count;
}

/** The word-like segments of `text`, as written (numbers included). */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const { segment, isWordLike } of segments(wordSegmenter, text)) if (isWordLike) out.push(segment);
  return out;
}

/**
 * Runs of words with only spaces between them: punctuation (a comma, a full stop, a dash, a
 * bracket) ends a run, as a phrase never spans it.
 */
export function wordRuns(text: string): string[][] {
  const runs: string[][] = [[]];
  for (const { segment, isWordLike } of segments(wordSegmenter, text)) {
    if (isWordLike) runs.at(-1)?.push(segment);
    else if (!/^[ \t]+$/.test(segment) && runs.at(-1)?.length) runs.push([]);
  }
  return runs.filter((run) => run.length > 0);
}

/** The sentences of `text` that hold a letter or digit, trimmed. */
export function sentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  for (const { segment } of segments(sentenceSegmenter, text)) {
    const trimmed = segment.trim();
    if (/[\p{L}\p{N}]/u.test(trimmed)) out.push({ index: out.length, text: trimmed });
  }
  return out;
}

/** Typographic apostrophes become ASCII ones so "don’t" matches the stop word "don't". */
export function normaliseWord(word: string): string {
  return word.toLowerCase().replace(/[\u2018\u2019]/g, "'");
}

/** Whether a lower-cased word is worth comparing: not a stop word, not a number, two letters or more. */
export function isContentWord(word: string): boolean {
  return word.length > 1 && !englishStopWords.has(word) && /\p{L}/u.test(word);
}

export function stem(word: string): string {
  // The Porter stemmer is for English letters only; other scripts are compared as written.
  return /^[a-z']+$/.test(word) ? stemmer(word.replace(/'s$/, '').replace(/'/g, '')) : word;
}

/** The stemmed content words of `text`, in order. */
export function terms(text: string): string[] {
  return words(text).map(normaliseWord).filter(isContentWord).map(stem);
}

/** Each stem of `text` with the first lower-cased spelling it had, for showing terms to people. */
export function spellings(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const word of words(text).map(normaliseWord).filter(isContentWord)) if (!out.has(stem(word))) out.set(stem(word), word);
  return out;
}

/** Rounds for display, so outputs are stable and readable. */
export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
