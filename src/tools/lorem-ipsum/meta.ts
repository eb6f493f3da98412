import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'lorem-ipsum',
  group: 'developer',
  name: 'Lorem ipsum generator',
  description: 'Generate placeholder text as words, sentences or paragraphs. Give a seed to get the same text every time.',
  keywords: ['lorem ipsum', 'placeholder', 'dummy text', 'filler', 'generator'],
  api: true,
  limits: { maxInputBytes: 10_000 },
  inputSchema: {
    type: 'object',
    properties: {
      unit: { type: 'string', enum: ['words', 'sentences', 'paragraphs'], default: 'paragraphs' },
      count: { type: 'integer', minimum: 1, maximum: 10_000, default: 3, description: 'How many units; at most 10 000 words, 1000 sentences or 200 paragraphs.' },
      seed: { type: 'integer', minimum: 0, maximum: 4_294_967_295, description: 'Optional: the same seed gives the same text.' },
    },
    required: [],
    additionalProperties: false,
  },
  examples: [
    { title: 'Eight words, seeded', input: { unit: 'words', count: 8, seed: 42 }, output: { result: 'Lorem dolore incididunt consequat mollit reprehenderit excepteur laborum', unit: 'words', count: 8, wordCount: 8 } },
    {
      title: 'Two sentences, seeded',
      input: { unit: 'sentences', count: 2, seed: 7 },
      output: { result: 'Esse cupidatat incididunt officia consectetur dolor nulla irure do. Eu incididunt non veniam aliquip.', unit: 'sentences', count: 2, wordCount: 14 },
    },
    { title: 'Three random paragraphs', input: { unit: 'paragraphs', count: 3 }, outputMatches: { unit: 'paragraphs', count: 3 } },
  ],
};
