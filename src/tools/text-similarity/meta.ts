import type { ToolMeta } from '../types.js';

const note =
  'Lexical similarity, not semantic: it compares the words used (stemmed, without stop words), not their meaning, so paraphrases with different words score low.';

export const meta: ToolMeta = {
  id: 'text-similarity',
  group: 'ai',
  name: 'Text similarity (lexical, not semantic)',
  description:
    'Compare the vocabulary of two texts: TF-IDF cosine and Jaccard similarity over stemmed words, and the words they share. Lexical, not semantic — synonyms and paraphrases are not recognised.',
  keywords: ['text similarity', 'compare texts', 'cosine similarity', 'tf-idf', 'jaccard', 'overlap', 'duplicate text', 'lexical'],
  api: true,
  limits: { maxInputBytes: 500_000 },
  inputSchema: {
    type: 'object',
    properties: {
      textA: { type: 'string', description: 'The first text.' },
      textB: { type: 'string', description: 'The second text.' },
      sharedLimit: { type: 'integer', minimum: 0, maximum: 200, default: 20, description: 'How many shared terms to list.' },
    },
    required: ['textA', 'textB'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Overlapping sentences',
      input: { textA: 'Solar panels turn sunlight into electricity.', textB: 'Batteries store electricity from solar panels for the night.' },
      output: { cosine: 0.381, jaccard: 0.375, sharedTerms: ['electricity', 'panels', 'solar'], termsA: 5, termsB: 6, note },
    },
    {
      title: 'Same meaning, different words',
      input: { textA: 'The car is fast.', textB: 'This automobile is quick.' },
      output: { cosine: 0, jaccard: 0, sharedTerms: [], termsA: 2, termsB: 2, note },
    },
  ],
};
