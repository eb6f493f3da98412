/**
 * Which OpenAI encoding each common model uses (from OpenAI's tiktoken model table). A short
 * list of our own rather than gpt-tokenizer's full model map, so the page does not load every
 * model's metadata just to count tokens.
 */
export const encodings = ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'] as const;
export type EncodingName = (typeof encodings)[number];

export const modelEncodings: Readonly<Record<string, EncodingName>> = {
  'gpt-5': 'o200k_base',
  'gpt-5-mini': 'o200k_base',
  'gpt-4.1': 'o200k_base',
  'gpt-4.1-mini': 'o200k_base',
  'gpt-4o': 'o200k_base',
  'gpt-4o-mini': 'o200k_base',
  o1: 'o200k_base',
  o3: 'o200k_base',
  'o4-mini': 'o200k_base',
  'gpt-4-turbo': 'cl100k_base',
  'gpt-4': 'cl100k_base',
  'gpt-3.5-turbo': 'cl100k_base',
  'text-embedding-3-small': 'cl100k_base',
  'text-embedding-3-large': 'cl100k_base',
  'text-embedding-ada-002': 'cl100k_base',
  'text-davinci-003': 'p50k_base',
  'code-davinci-002': 'p50k_base',
  davinci: 'r50k_base',
};
