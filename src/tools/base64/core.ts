/** Base64 for text: UTF-8 bytes in, and only UTF-8 text accepted out. */
import { lineColumn } from '../../text-position.js';
import { base64ToBytes, bytesToBase64, utf8Bytes, utf8Text } from '../shared/bytes.js';
import { ToolInputError } from '../types.js';

export interface Base64Input {
  mode: 'encode' | 'decode';
  text: string;
  urlSafe?: boolean;
}

export interface Base64Output {
  result: string;
}

const allowed = /[A-Za-z0-9+/\-_=\s]/;

function decode(text: string): string {
  for (let i = 0; i < text.length; i++) {
    if (!allowed.test(text[i] as string)) {
      const { line, column } = lineColumn(text, i);
      throw new ToolInputError(`"${text[i]}" at line ${line}, column ${column} is not a Base64 character.`, { field: 'text', line, column, offset: i });
    }
  }
  const compact = text.replace(/\s+/g, '');
  const data = compact.replace(/=+$/, '');
  const padding = compact.length - data.length;
  if (data.includes('=')) throw new ToolInputError('Padding ("=") may only appear at the end.', { field: 'text' });
  if (padding > 2 || data.length % 4 === 1 || (padding > 0 && compact.length % 4 !== 0)) {
    throw new ToolInputError('The Base64 text has an impossible length: a character is missing or extra.', { field: 'text' });
  }
  const standard = data.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = base64ToBytes(standard.padEnd(Math.ceil(standard.length / 4) * 4, '='));
  const decoded = utf8Text(bytes);
  if (decoded === undefined) {
    throw new ToolInputError(`The decoded ${bytes.length} bytes are not UTF-8 text (binary data cannot be shown as text).`, { field: 'text' });
  }
  return decoded;
}

export function run(input: Base64Input): Base64Output {
  if (input.mode === 'encode') return { result: bytesToBase64(utf8Bytes(input.text), input.urlSafe ?? false) };
  return { result: decode(input.text) };
}
