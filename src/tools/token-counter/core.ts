/**
 * Exact token counts for OpenAI encodings with gpt-tokenizer. Each encoding is imported from its
 * own entry point only when asked for, so counting with o200k_base never loads the other rank tables.
 * Special-token markers such as "<|endoftext|>" in the text are counted as ordinary text, as they
 * are when a person's text is sent to the API.
 */
import { characterCount, words } from '../shared/ai-text.js';
import { ToolInputError } from '../types.js';
import { type EncodingName, modelEncodings } from './models.js';

export interface TokenCounterInput {
  text: string;
  model?: string;
  encoding?: EncodingName;
  showTokens?: boolean;
}

export interface TokenPreview {
  id: number;
  /** The token's text; a token holding part of a multi-byte character shows as "\uFFFD". */
  text: string;
}

export interface TokenCounterOutput {
  tokens: number;
  encoding: EncodingName;
  model?: string;
  characters: number;
  words: number;
  /** The first tokens with their text, when asked for. */
  tokenList?: TokenPreview[];
  note: string;
}

interface Encoder {
  encode(text: string, options?: { disallowedSpecial?: Set<string> }): number[];
  decode(tokens: Iterable<number>): string;
}

export const previewLength = 200;

const loaders: Record<EncodingName, () => Promise<Encoder>> = {
  o200k_base: () => import('gpt-tokenizer/encoding/o200k_base'),
  cl100k_base: () => import('gpt-tokenizer/encoding/cl100k_base'),
  p50k_base: () => import('gpt-tokenizer/encoding/p50k_base'),
  r50k_base: () => import('gpt-tokenizer/encoding/r50k_base'),
};

function chooseEncoding(input: TokenCounterInput): EncodingName {
  if (input.model === undefined) return input.encoding ?? 'o200k_base';
  const fromModel = modelEncodings[input.model];
  if (!fromModel) throw new ToolInputError(`Unknown model "${input.model}". Choose one from the list, or choose an encoding instead.`, { field: 'model' });
  if (input.encoding && input.encoding !== fromModel) {
    throw new ToolInputError(`${input.model} uses ${fromModel}, not ${input.encoding}: give a model or an encoding, not both.`, { field: 'encoding' });
  }
  return fromModel;
}

export async function run(input: TokenCounterInput): Promise<TokenCounterOutput> {
  const encoding = chooseEncoding(input);
  const encoder = await loaders[encoding]();
  const ids = encoder.encode(input.text, { disallowedSpecial: new Set() });
  const output: TokenCounterOutput = {
    tokens: ids.length,
    encoding,
    ...(input.model ? { model: input.model } : {}),
    characters: characterCount(input.text),
    words: words(input.text).length,
    note: `Exact for OpenAI models that use ${encoding}. Other vendors' models (Claude, Gemini, Llama, Mistral…) use their own tokenizers: for them this count is only an estimate.`,
  };
  if (input.showTokens) output.tokenList = ids.slice(0, previewLength).map((id) => ({ id, text: encoder.decode([id]) }));
  return output;
}
