/**
 * Classic English readability formulas from counts of sentences, words, letters and syllables
 * (syllables from the `syllable` package). The formulas were fitted to English prose of 100+
 * words: short texts and other languages get a warning, since the numbers mean little there.
 */
import { syllable } from 'syllable';
import { notEnglishWarning } from '../shared/ai-language.js';
import { round, sentences, words } from '../shared/ai-text.js';
import { ToolInputError } from '../types.js';

export interface ReadabilityInput {
  text: string;
}

export interface ReadabilityOutput {
  sentences: number;
  words: number;
  syllables: number;
  letters: number;
  /** Words of three or more syllables (Gunning fog's "complex words", SMOG's polysyllables). */
  complexWords: number;
  fleschReadingEase: number;
  /** How the reading-ease score is usually described. */
  readingEase: string;
  fleschKincaidGrade: number;
  gunningFog: number;
  smog: number;
  colemanLiau: number;
  automatedReadabilityIndex: number;
  warnings?: string[];
}

const reliableWords = 100;
/** SMOG was calibrated on samples of 30 sentences. */
const smogSentences = 30;

const easeBands: [number, string][] = [
  [90, 'Very easy'],
  [80, 'Easy'],
  [70, 'Fairly easy'],
  [60, 'Plain English'],
  [50, 'Fairly difficult'],
  [30, 'Difficult'],
  [-Infinity, 'Very difficult'],
];

function easeLabel(score: number): string {
  return easeBands.find(([floor]) => score >= floor)?.[1] ?? 'Very difficult';
}

function counts(text: string) {
  const wordList = words(text).filter((w) => /\p{L}/u.test(w));
  let syllables = 0;
  let complexWords = 0;
  let letters = 0;
  for (const word of wordList) {
    const n = Math.max(1, syllable(word));
    syllables += n;
    if (n >= 3) complexWords++;
    letters += word.replace(/[^\p{L}\p{N}]/gu, '').length;
  }
  return { words: wordList.length, sentences: Math.max(1, sentences(text).length), syllables, complexWords, letters };
}

export function run(input: ReadabilityInput): ReadabilityOutput {
  const c = counts(input.text);
  if (c.words === 0) throw new ToolInputError('The text has no words to measure.', { field: 'text' });
  const wordsPerSentence = c.words / c.sentences;
  const syllablesPerWord = c.syllables / c.words;
  const fleschReadingEase = 206.835 - 1.015 * wordsPerSentence - 84.6 * syllablesPerWord;
  const output: ReadabilityOutput = {
    ...c,
    fleschReadingEase: round(fleschReadingEase, 1),
    readingEase: easeLabel(fleschReadingEase),
    fleschKincaidGrade: round(0.39 * wordsPerSentence + 11.8 * syllablesPerWord - 15.59, 1),
    gunningFog: round(0.4 * (wordsPerSentence + (100 * c.complexWords) / c.words), 1),
    smog: round(1.043 * Math.sqrt((c.complexWords * smogSentences) / c.sentences) + 3.1291, 1),
    colemanLiau: round(0.0588 * ((100 * c.letters) / c.words) - 0.296 * ((100 * c.sentences) / c.words) - 15.8, 1),
    automatedReadabilityIndex: round(4.71 * (c.letters / c.words) + 0.5 * wordsPerSentence - 21.43, 1),
  };
  const warnings: string[] = [];
  const language = notEnglishWarning(input.text, 'every readability formula here');
  if (language) warnings.push(language);
  if (c.words < reliableWords) warnings.push(`Only ${c.words} words: the formulas were made for samples of ${reliableWords} words or more, so the scores are rough.`);
  else if (c.sentences < smogSentences) warnings.push(`SMOG was calibrated on ${smogSentences} sentences; with ${c.sentences} it is an approximation.`);
  if (warnings.length) output.warnings = warnings;
  return output;
}
