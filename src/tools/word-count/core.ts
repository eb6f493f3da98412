/**
 * Text statistics with Unicode segmentation (Intl.Segmenter): characters are
 * grapheme clusters (👋🏽 is one), words are word-like segments (so CJK text
 * counts too), sentences are sentence segments holding a letter or digit.
 */

export interface WordCountInput {
  text: string;
  wordsPerMinute?: number;
}

export interface WordCountOutput {
  words: number;
  characters: number;
  charactersNoSpaces: number;
  sentences: number;
  paragraphs: number;
  readingTimeSeconds: number;
  /** Rounded up: what "n min read" shows; 0 only for empty text. */
  readingTimeMinutes: number;
}

import { segments } from '../shared/segments.js';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const words = new Intl.Segmenter(undefined, { granularity: 'word' });
const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' });

export function run(input: WordCountInput): WordCountOutput {
  const { text } = input;
  let characters = 0;
  let charactersNoSpaces = 0;
  for (const { segment } of segments(graphemes, text)) {
    characters++;
    if (!/^\s+$/u.test(segment)) charactersNoSpaces++;
  }
  let wordCount = 0;
  for (const segment of segments(words, text)) if (segment.isWordLike) wordCount++;
  let sentenceCount = 0;
  for (const { segment } of segments(sentences, text)) if (/[\p{L}\p{N}]/u.test(segment)) sentenceCount++;
  const paragraphs = text.split(/\n\s*\n/).filter((p) => /\S/.test(p)).length;
  const readingTimeSeconds = Math.round((wordCount / (input.wordsPerMinute ?? 200)) * 60);
  return {
    words: wordCount,
    characters,
    charactersNoSpaces,
    sentences: sentenceCount,
    paragraphs,
    readingTimeSeconds,
    readingTimeMinutes: wordCount === 0 ? 0 : Math.max(1, Math.ceil(readingTimeSeconds / 60)),
  };
}
