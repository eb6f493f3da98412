import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'sentiment',
  group: 'ai',
  name: 'Sentiment score (AFINN word list, English)',
  description:
    'Score how positive or negative an English text is from the AFINN-165 word list (with simple negation), and list the words that counted. A lexicon score, not a language model.',
  keywords: ['sentiment', 'sentiment analysis', 'afinn', 'positive', 'negative', 'opinion', 'tone', 'review'],
  api: true,
  limits: { maxInputBytes: 500_000 },
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'English text: a review, a comment, a message.' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Mixed review',
      input: { text: 'I love this product. The battery life is amazing, but the charger is terrible.' },
      output: { score: 4, comparative: 0.286, label: 'positive', positive: ['amazing', 'love'], negative: ['terrible'] },
    },
    {
      title: 'Negation',
      input: { text: 'This is not good at all. Awful service and rude staff.' },
      output: { score: -8, comparative: -0.727, label: 'negative', positive: [], negative: ['rude', 'awful', 'good'] },
    },
    {
      title: 'Not English',
      input: { text: 'Das ist ein wunderbarer Tag, ich bin sehr glücklich und zufrieden mit allem.' },
      output: {
        score: 0,
        comparative: 0,
        label: 'neutral',
        positive: [],
        negative: [],
        warnings: ['The text looks like German, not English: the AFINN word list is made for English, so the result may be meaningless.'],
      },
    },
  ],
};
