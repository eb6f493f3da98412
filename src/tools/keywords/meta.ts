import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'keywords',
  group: 'ai',
  name: 'Keyword and key-phrase extractor (word frequency)',
  description:
    'List the words and 2–4-word phrases a text uses most, ignoring stop words and counting word forms together (panel, panels). Term frequency on a single text; best for English.',
  keywords: ['keywords', 'key phrases', 'keyword extraction', 'tags', 'topics', 'term frequency', 'seo', 'word frequency'],
  api: true,
  limits: { maxInputBytes: 500_000 },
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The text, at least 20 words.' },
      limit: { type: 'integer', minimum: 1, maximum: 50, default: 10, description: 'How many keywords and how many phrases to list.' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Top five',
      input: {
        text: 'Solar panels convert sunlight into electricity. The panels are made of silicon cells. When sunlight hits the silicon cells, electrons move and create an electric current. Many homes now install solar panels on their roofs. The electricity from solar panels can power the home or be stored in batteries. Batteries let homes use solar electricity at night.',
        limit: 5,
      },
      output: {
        keywords: [
          { term: 'solar', count: 4, score: 0.114 },
          { term: 'panels', count: 4, score: 0.114 },
          { term: 'electricity', count: 4, score: 0.114 },
          { term: 'homes', count: 3, score: 0.086 },
          { term: 'sunlight', count: 2, score: 0.057 },
        ],
        phrases: [
          { phrase: 'solar panels', count: 3, score: 0.686 },
          { phrase: 'silicon cells', count: 2, score: 0.229 },
        ],
      },
    },
    {
      title: 'Too short',
      input: { text: 'Too short to matter.' },
      output: { keywords: [], phrases: [], note: 'The text has 4 words; keyword extraction needs at least 20 to find anything meaningful.' },
    },
  ],
};
