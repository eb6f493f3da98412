/**
 * Word-list sentiment with the `sentiment` package (AFINN-165: about 3 400 English words rated
 * from −5 to +5, with negation). It is a lexicon score, not a model: sarcasm and context escape it,
 * and non-English text scores near zero, so a warning says when the text does not look English.
 */
import Sentiment from 'sentiment';
import { notEnglishWarning } from '../shared/ai-language.js';
import { round } from '../shared/ai-text.js';

export interface SentimentInput {
  text: string;
}

export interface SentimentOutput {
  /** Sum of the rated words' scores. */
  score: number;
  /** Score per word, so long and short texts compare. */
  comparative: number;
  label: 'positive' | 'negative' | 'neutral';
  positive: string[];
  negative: string[];
  warnings?: string[];
}

const analyzer = new Sentiment();

export function run(input: SentimentInput): SentimentOutput {
  const result = analyzer.analyze(input.text);
  const output: SentimentOutput = {
    score: result.score,
    comparative: round(result.comparative),
    label: result.score > 0 ? 'positive' : result.score < 0 ? 'negative' : 'neutral',
    positive: result.positive,
    negative: result.negative,
  };
  const warning = notEnglishWarning(input.text, 'the AFINN word list');
  if (warning) output.warnings = [warning];
  return output;
}
