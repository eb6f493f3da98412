import type { ToolMeta } from '../types.js';

const short = 'Only 23 words: the formulas were made for samples of 100 words or more, so the scores are rough.';

export const meta: ToolMeta = {
  id: 'readability',
  group: 'ai',
  name: 'Readability scores (English)',
  description:
    'Flesch reading ease, Flesch–Kincaid grade, Gunning fog, SMOG, Coleman–Liau and ARI for English text, with the word, sentence and syllable counts behind them.',
  keywords: ['readability', 'flesch', 'flesch-kincaid', 'reading level', 'grade level', 'gunning fog', 'smog', 'coleman-liau', 'ari', 'plain english'],
  api: true,
  limits: { maxInputBytes: 500_000 },
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'English prose, ideally 100 words or more.' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Simple sentences',
      input: { text: 'The cat sat on the mat. It was a sunny day. The dog ran to the park and played with a red ball.' },
      output: {
        words: 23,
        sentences: 3,
        syllables: 24,
        complexWords: 0,
        letters: 70,
        fleschReadingEase: 110.8,
        readingEase: 'Very easy',
        fleschKincaidGrade: -0.3,
        gunningFog: 3.1,
        smog: 3.1,
        colemanLiau: -1.8,
        automatedReadabilityIndex: -3.3,
        warnings: [short],
      },
    },
    {
      title: 'Dense bureaucratic prose',
      input: {
        text: 'Notwithstanding the aforementioned considerations, the organizational infrastructure necessitates comprehensive reevaluation. Administrative responsibilities are consequently redistributed among interdepartmental committees.',
      },
      outputMatches: { words: 18, sentences: 2, complexWords: 14, readingEase: 'Very difficult', fleschKincaidGrade: 34.5, smog: 18.2 },
    },
    {
      title: 'Not English',
      input: { text: 'Le chat est assis sur le tapis. Il fait beau aujourd’hui et les enfants jouent dans le jardin.' },
      outputMatches: {
        warnings: [
          'The text looks like French, not English: every readability formula here is made for English, so the result may be meaningless.',
          'Only 18 words: the formulas were made for samples of 100 words or more, so the scores are rough.',
        ],
      },
    },
  ],
};
