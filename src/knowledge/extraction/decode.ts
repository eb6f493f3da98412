import { DomainError } from '../../errors.js';

// ignoreBOM: true keeps the BOM in the output so that stripping it is one
// explicit, documented step rather than a decoder default.
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Byte offset of the first invalid UTF-8 sequence, or -1 when the bytes are
 * valid. Follows the WHATWG decoder's notion of "invalid": overlong forms,
 * surrogates, code points above U+10FFFF, stray continuation bytes and a
 * sequence cut off by the end of the input. The offset is the first byte of
 * the offending sequence, which is where a person would look in a hex editor.
 */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0; // overlong
      if (b === 0xed) hi = 0x9f; // surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90; // overlong
      if (b === 0xf4) hi = 0x8f; // above U+10FFFF
    } else return i;
    for (let k = 1; k <= need; k++) {
      if (i + k >= n) return i;
      const c = bytes[i + k] as number;
      const min = k === 1 ? lo : 0x80;
      const max = k === 1 ? hi : 0xbf;
      if (c < min || c > max) return i;
    }
    i += need + 1;
  }
  return -1;
}

// C0 controls other than tab (U+0009) and line feed (U+000A); CR is handled
// before this runs, so it never reaches here.
const CONTROL = /[\u0000-\u0008\u000B-\u001F]/g;

/** Line-break and control-character clean-up shared by file text and JSON string values. */
export function cleanText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROL, '');
}

/**
 * Bytes to text: strict UTF-8, one leading BOM removed, CRLF and lone CR
 * turned into LF, C0 control characters other than tab and LF removed.
 */
export function decodeText(bytes: Uint8Array): string {
  let text: string;
  try {
    text = strictDecoder.decode(bytes);
  } catch {
    const offset = firstInvalidUtf8Offset(bytes);
    throw new DomainError('invalid_utf8', `The file is not valid UTF-8 text: invalid byte sequence at byte offset ${Math.max(offset, 0)}.`, {
      offset: Math.max(offset, 0),
    });
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return cleanText(text);
}
