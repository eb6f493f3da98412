import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'token-counter',
  group: 'ai',
  name: 'OpenAI token counter',
  description:
    'Count tokens exactly as OpenAI models do (o200k_base, cl100k_base, p50k_base, r50k_base), by model or by encoding, with an optional list of the first 200 tokens. For other vendors’ models the count is only an estimate.',
  keywords: ['tokens', 'token count', 'tokenizer', 'tiktoken', 'openai', 'gpt', 'gpt-4o', 'o200k_base', 'cl100k_base', 'llm', 'prompt length'],
  api: true,
  limits: { maxInputBytes: 1_000_000, timeoutMs: 20_000 },
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The text to count.' },
      model: {
        type: 'string',
        enum: [
          'gpt-5', 'gpt-5-mini', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'gpt-4o-mini', 'o1', 'o3', 'o4-mini',
          'gpt-4-turbo', 'gpt-4', 'gpt-3.5-turbo', 'text-embedding-3-small', 'text-embedding-3-large', 'text-embedding-ada-002',
          'text-davinci-003', 'code-davinci-002', 'davinci',
        ],
        description: 'Count for this model (its encoding is chosen for you). Leave empty to choose an encoding.',
      },
      encoding: {
        type: 'string',
        enum: ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'],
        description: 'The encoding to use when no model is given (o200k_base when neither is given).',
      },
      showTokens: { type: 'boolean', default: false, description: 'Also list the first 200 tokens with their text.' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Count for GPT-4o',
      input: { text: 'Hello, world!', model: 'gpt-4o' },
      output: {
        tokens: 4,
        encoding: 'o200k_base',
        model: 'gpt-4o',
        characters: 13,
        words: 2,
        note: 'Exact for OpenAI models that use o200k_base. Other vendors\' models (Claude, Gemini, Llama, Mistral…) use their own tokenizers: for them this count is only an estimate.',
      },
    },
    {
      title: 'List the tokens (cl100k_base)',
      input: { text: 'Hello, world!', encoding: 'cl100k_base', showTokens: true },
      output: {
        tokens: 4,
        encoding: 'cl100k_base',
        characters: 13,
        words: 2,
        tokenList: [
          { id: 9906, text: 'Hello' },
          { id: 11, text: ',' },
          { id: 1917, text: ' world' },
          { id: 0, text: '!' },
        ],
        note: 'Exact for OpenAI models that use cl100k_base. Other vendors\' models (Claude, Gemini, Llama, Mistral…) use their own tokenizers: for them this count is only an estimate.',
      },
    },
    {
      title: 'Old GPT-3 encoding',
      input: { text: 'Hello, world!', encoding: 'r50k_base' },
      outputMatches: { tokens: 4, encoding: 'r50k_base' },
    },
  ],
};
