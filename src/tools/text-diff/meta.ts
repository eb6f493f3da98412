import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'text-diff',
  group: 'developer',
  name: 'Text diff (unified patch)',
  description: 'Compare two texts line by line (as a unified patch) or word by word, with counts of what was added and removed.',
  keywords: ['diff', 'compare', 'patch', 'unified diff', 'changes', 'text compare'],
  api: true,
  limits: { maxInputBytes: 2_100_000 },
  inputSchema: {
    type: 'object',
    properties: {
      before: { type: 'string', maxLength: 1_000_000, description: 'The original text (at most 1 MB).' },
      after: { type: 'string', maxLength: 1_000_000, description: 'The changed text (at most 1 MB).' },
      mode: { type: 'string', enum: ['line', 'word'], default: 'line', description: 'line: a unified patch; word: the text with [-removed-] and {+added+} words marked.' },
      context: { type: 'integer', minimum: 0, maximum: 100, default: 3, description: 'Unchanged lines shown around each change (line mode).' },
    },
    required: ['before', 'after'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Line diff',
      input: { before: 'one\ntwo\nthree\n', after: 'one\n2\nthree\nfour\n' },
      output: { result: '--- before\n+++ after\n@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n', added: 2, removed: 1, identical: false },
    },
    {
      title: 'Word diff',
      input: { before: 'The quick brown fox', after: 'The slow brown dog', mode: 'word' },
      output: { result: 'The [-quick-]{+slow+} brown [-fox-]{+dog+}', added: 2, removed: 2, identical: false },
    },
    { title: 'Identical texts', input: { before: 'same', after: 'same' }, output: { result: '', added: 0, removed: 0, identical: true } },
  ],
};
