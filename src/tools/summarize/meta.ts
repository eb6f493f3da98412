import type { ToolMeta } from '../types.js';

const solar =
  'Solar panels convert sunlight into electricity. The panels are made of silicon cells. When sunlight hits the silicon cells, electrons move and create an electric current. Many homes now install solar panels on their roofs. The electricity from solar panels can power the home or be stored in batteries. Cats like to sleep in the sun. Batteries let homes use solar electricity at night.';

export const meta: ToolMeta = {
  id: 'summarize',
  group: 'ai',
  name: 'Extractive summary',
  description:
    'Pick the most central sentences of a text (TextRank over sentence word overlap) and return them unchanged, in their original order. It selects sentences; it does not rewrite them. Best for English.',
  keywords: ['summary', 'summarize', 'summarise', 'tl;dr', 'textrank', 'key sentences', 'extractive summary'],
  api: true,
  limits: { maxInputBytes: 300_000 },
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The text to summarise, several sentences long.' },
      sentences: { type: 'integer', minimum: 1, maximum: 50, description: 'How many sentences to keep (3 when neither this nor a ratio is given).' },
      ratio: { type: 'number', minimum: 0.05, maximum: 0.9, description: 'Or: the share of sentences to keep, e.g. 0.3 for 30 %.' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Two sentences',
      input: { text: solar, sentences: 2 },
      output: {
        result: 'Solar panels convert sunlight into electricity. The electricity from solar panels can power the home or be stored in batteries.',
        sentences: [
          { index: 0, text: 'Solar panels convert sunlight into electricity.', score: 1.195 },
          { index: 4, text: 'The electricity from solar panels can power the home or be stored in batteries.', score: 1.321 },
        ],
        totalSentences: 7,
      },
    },
    {
      title: 'Half of the sentences',
      input: { text: solar, ratio: 0.5 },
      outputMatches: {
        result:
          'Solar panels convert sunlight into electricity. Many homes now install solar panels on their roofs. The electricity from solar panels can power the home or be stored in batteries. Batteries let homes use solar electricity at night.',
        totalSentences: 7,
      },
    },
    {
      title: 'Short text is returned as is',
      input: { text: 'One sentence only. And two.' },
      output: {
        result: 'One sentence only. And two.',
        sentences: [
          { index: 0, text: 'One sentence only.', score: 1 },
          { index: 1, text: 'And two.', score: 1 },
        ],
        totalSentences: 2,
        note: 'The text has 2 sentences, no more than asked for: it is returned as it is.',
      },
    },
  ],
};
