/** Placeholder text with lorem-ipsum; a seed makes it repeatable. */
import { LoremIpsum } from 'lorem-ipsum';
import { seededRandom } from './seeded-random.js';

export interface LoremIpsumInput {
  unit?: 'words' | 'sentences' | 'paragraphs';
  count?: number;
  seed?: number;
}

export interface LoremIpsumOutput {
  result: string;
  unit: string;
  count: number;
  wordCount: number;
  warnings?: string[];
}

/** The most of each unit one run makes (about the same amount of text for each). */
const maxCount = { words: 10_000, sentences: 1000, paragraphs: 200 };

export function run(input: LoremIpsumInput): LoremIpsumOutput {
  const unit = input.unit ?? 'paragraphs';
  const asked = input.count ?? 3;
  const count = Math.min(Math.max(1, Math.floor(asked)), maxCount[unit]);
  const lorem = new LoremIpsum(
    {
      sentencesPerParagraph: { min: 3, max: 7 },
      wordsPerSentence: { min: 5, max: 14 },
      random: input.seed === undefined ? Math.random : seededRandom(input.seed),
    },
    'plain',
    // Fixed line ending: the library would use \r\n on Windows.
    '\n',
  );
  const result = unit === 'words' ? lorem.generateWords(count) : unit === 'sentences' ? lorem.generateSentences(count) : lorem.generateParagraphs(count);
  const output: LoremIpsumOutput = { result, unit, count, wordCount: result.split(/\s+/).filter(Boolean).length };
  if (count !== asked) output.warnings = [`The count was limited to ${count} ${unit}.`];
  return output;
}
