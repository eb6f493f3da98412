/** encodeURIComponent / decodeURIComponent, with the position of a broken escape. */
import { ToolInputError } from '../types.js';

export interface UrlEncodeInput {
  mode: 'encode' | 'decode';
  text: string;
  plusAsSpace?: boolean;
}

export interface UrlEncodeOutput {
  result: string;
}

/** The offset of the first escape that cannot be decoded: malformed `%xx`, or bytes that are not UTF-8. */
function firstBadEscape(text: string): number {
  for (let i = 0; i < text.length; ) {
    if (text[i] !== '%') {
      i++;
      continue;
    }
    // One UTF-8 sequence: a run of %xx escapes that decodes on its own.
    let end = i;
    while (text[end] === '%' && /^[0-9a-fA-F]{2}$/.test(text.slice(end + 1, end + 3))) end += 3;
    if (end === i) return i;
    const run = text.slice(i, end);
    let ok = false;
    for (let cut = run.length; cut >= 3 && !ok; cut -= 3) {
      try {
        decodeURIComponent(run.slice(0, cut));
        i += cut;
        ok = true;
      } catch {
        // try a shorter prefix
      }
    }
    if (!ok) return i;
  }
  return -1;
}

export function run(input: UrlEncodeInput): UrlEncodeOutput {
  if (input.mode === 'encode') {
    try {
      return { result: encodeURIComponent(input.text) };
    } catch {
      throw new ToolInputError('The text contains a lone surrogate (half of an emoji or other astral character) and cannot be encoded.', { field: 'text' });
    }
  }
  const text = input.plusAsSpace ? input.text.replace(/\+/g, ' ') : input.text;
  try {
    return { result: decodeURIComponent(text) };
  } catch {
    const offset = Math.max(0, firstBadEscape(text));
    throw new ToolInputError(`Broken percent-escape at character ${offset + 1}: "${text.slice(offset, offset + 9)}" is not a complete UTF-8 sequence of %xx escapes.`, {
      field: 'text',
      offset,
      column: offset + 1,
    });
  }
}
