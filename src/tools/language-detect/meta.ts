import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'language-detect',
  group: 'ai',
  name: 'Language detector',
  description:
    'Guess the language of a text from its letter patterns (franc-min, about 80 widely spoken languages), with ISO 639-3 codes, English names and the next best candidates.',
  keywords: ['language detection', 'detect language', 'identify language', 'franc', 'iso 639-3', 'what language'],
  api: true,
  limits: { maxInputBytes: 200_000 },
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The text to identify; a sentence or more works best.' },
      candidates: { type: 'integer', minimum: 1, maximum: 20, default: 5, description: 'How many candidate languages to list.' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'English, best candidate only',
      input: { text: 'The quick brown fox jumps over the lazy dog while the farmer watches from the porch.', candidates: 1 },
      output: { language: 'eng', name: 'English', candidates: [{ language: 'eng', name: 'English', score: 1 }] },
    },
    {
      title: 'Spanish, three candidates',
      input: { text: 'El rápido zorro marrón salta sobre el perro perezoso mientras el granjero mira desde el porche.', candidates: 3 },
      output: {
        language: 'spa',
        name: 'Spanish',
        candidates: [
          { language: 'spa', name: 'Spanish', score: 1 },
          { language: 'por', name: 'Portuguese', score: 0.852 },
          { language: 'ita', name: 'Italian', score: 0.833 },
        ],
      },
    },
    {
      title: 'Too short',
      input: { text: 'Hi there' },
      output: { language: 'und', candidates: [], message: 'Too short to tell: language detection needs at least 10 letters.' },
    },
  ],
};
