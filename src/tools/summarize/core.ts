/**
 * Extractive summary: the text's own most central sentences (TextRank over Intl.Segmenter
 * sentences and stemmed content words), returned in their original order. Nothing is rewritten.
 */
import { round, sentences, terms } from '../shared/ai-text.js';
import { ToolInputError } from '../types.js';
import { textRank } from './textrank.js';

export interface SummarizeInput {
  text: string;
  /** How many sentences to keep. */
  sentences?: number;
  /** Or: which share of the sentences to keep (0.05–0.9). */
  ratio?: number;
}

export interface SummarySentence {
  /** Position in the original text, from 0. */
  index: number;
  text: string;
  /** TextRank score relative to the average sentence (1 = average, higher = more central). */
  score: number;
}

export interface SummarizeOutput {
  result: string;
  sentences: SummarySentence[];
  totalSentences: number;
  note?: string;
}

export const defaultSentenceCount = 3;
/** TextRank compares every pair of sentences: 1 500 is about a short book chapter and stays well under the time limit. */
export const maxSentences = 1500;

function wanted(input: SummarizeInput, total: number): number {
  if (input.sentences !== undefined && input.ratio !== undefined) {
    throw new ToolInputError('Give either a number of sentences or a ratio, not both.', { field: 'ratio' });
  }
  if (input.ratio !== undefined) return Math.max(1, Math.round(total * input.ratio));
  return input.sentences ?? defaultSentenceCount;
}

export function run(input: SummarizeInput): SummarizeOutput {
  const all = sentences(input.text);
  const count = wanted(input, all.length);
  if (all.length <= count) {
    return {
      result: all.map((s) => s.text).join(' '),
      sentences: all.map((s) => ({ ...s, score: 1 })),
      totalSentences: all.length,
      note: `The text has ${all.length} sentence${all.length === 1 ? '' : 's'}, no more than asked for: it is returned as it is.`,
    };
  }
  if (all.length > maxSentences) {
    throw new ToolInputError(`The text has ${all.length} sentences; summaries work on at most ${maxSentences}. Summarise it in parts.`, { field: 'text', kind: 'too_large' });
  }
  const scores = textRank(all.map((s) => terms(s.text)));
  // The best `count` sentences (earlier first among equals), then back in reading order.
  const chosen = all
    .map((s, i) => ({ ...s, score: scores[i] ?? 0 }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, count)
    .sort((a, b) => a.index - b.index)
    .map((s) => ({ ...s, score: round(s.score * all.length) }));
  return { result: chosen.map((s) => s.text).join(' '), sentences: chosen, totalSentences: all.length };
}
