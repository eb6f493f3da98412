import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'word-count',
  group: 'ai',
  name: 'Word counter',
  description: 'Count words, characters, sentences and paragraphs, and estimate the reading time. Works for any language (Unicode word and sentence boundaries).',
  keywords: ['word count', 'character count', 'letters', 'sentences', 'paragraphs', 'reading time', 'text statistics'],
  api: true,
  limits: { maxInputBytes: 1_000_000 },
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string' },
      wordsPerMinute: { type: 'integer', minimum: 50, maximum: 1000, default: 200, description: 'Reading speed for the reading-time estimate.' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Two sentences',
      input: { text: 'Hello world. How are you today?' },
      output: { words: 6, characters: 31, charactersNoSpaces: 26, sentences: 2, paragraphs: 1, readingTimeSeconds: 2, readingTimeMinutes: 1 },
    },
    {
      title: 'Paragraphs and emoji',
      input: { text: 'One 👋🏽.\n\nTwo words!', wordsPerMinute: 60 },
      output: { words: 3, characters: 18, charactersNoSpaces: 14, sentences: 2, paragraphs: 2, readingTimeSeconds: 3, readingTimeMinutes: 1 },
    },
    {
      title: 'Empty text',
      input: { text: '' },
      output: { words: 0, characters: 0, charactersNoSpaces: 0, sentences: 0, paragraphs: 0, readingTimeSeconds: 0, readingTimeMinutes: 0 },
    },
  ],
};
