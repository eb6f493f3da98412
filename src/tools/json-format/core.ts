/** Pretty-print, minify or validate JSON; errors carry the line and column. */
import { jsonErrorAt } from '../../json-scan.js';
import { lineColumn } from '../../text-position.js';
import { ToolInputError } from '../types.js';

export interface JsonFormatInput {
  text: string;
  mode?: 'pretty' | 'minify' | 'validate';
  indent?: 2 | 4 | 'tab';
  sortKeys?: boolean;
}

export interface JsonSyntaxError {
  message: string;
  line: number;
  column: number;
}

export type JsonFormatOutput = { result: string } | { valid: true } | { valid: false; error: JsonSyntaxError };

function syntaxError(text: string, parseMessage: string): JsonSyntaxError {
  const located = jsonErrorAt(text);
  // JSON.parse refused the text; the strict reader should agree. If it does not, fall back to the parser's words.
  const offset = located?.offset ?? Number(/position (\d+)/.exec(parseMessage)?.[1] ?? text.length);
  return { message: located?.message ?? parseMessage, ...lineColumn(text, offset) };
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sorted((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

export function run(input: JsonFormatInput): JsonFormatOutput {
  const mode = input.mode ?? 'pretty';
  let value: unknown;
  try {
    value = JSON.parse(input.text);
  } catch (error) {
    const where = syntaxError(input.text, (error as Error).message);
    if (mode === 'validate') return { valid: false, error: where };
    throw new ToolInputError(`Invalid JSON at line ${where.line}, column ${where.column}: ${where.message}.`, {
      field: 'text',
      line: where.line,
      column: where.column,
      kind: 'invalid_json',
    });
  }
  if (mode === 'validate') return { valid: true };
  const shaped = input.sortKeys ? sorted(value) : value;
  if (mode === 'minify') return { result: JSON.stringify(shaped) };
  const indent = input.indent ?? 2;
  return { result: JSON.stringify(shaped, null, indent === 'tab' ? '\t' : indent) };
}
