/**
 * The project's one JSON error locator: a small iterative JSON validator, used by the extractor
 * (uploads) and the JSON utilities. It exists because JSON.parse can neither tell us the line and
 * column of an error in a stable way (V8's message format is not a contract) nor refuse deep
 * nesting before doing the work. It never recurses, so a 100 000-deep `[[[[` costs a loop, not
 * the stack. It accepts exactly RFC 8259 JSON, the same language JSON.parse accepts.
 */

export type ScanResult = { ok: true } | { ok: false; kind: 'syntax'; pos: number; message: string } | { ok: false; kind: 'depth'; pos: number };

// What the scanner expects next.
const State = {
  Value: 0,
  ArrayFirst: 1,
  ObjectFirst: 2,
  Key: 3,
  Colon: 4,
  After: 5,
} as const;

class ScanError {
  constructor(
    readonly pos: number,
    readonly message: string,
  ) {}
}

function describe(s: string, pos: number): string {
  if (pos >= s.length) return 'end of input';
  const cp = s.codePointAt(pos) as number;
  if (cp < 0x20 || cp === 0x7f) return `control character U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return `"${String.fromCodePoint(cp)}"`;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** Index just after the closing quote of the string starting at `i`. */
function scanString(s: string, i: number): number {
  let j = i + 1;
  const end = s.length;
  while (j < end) {
    const c = s.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c === 0x5c) {
      const e = s.charCodeAt(j + 1);
      if (e === 0x75) {
        for (let k = 2; k < 6; k++) {
          if (!isHex(s.charCodeAt(j + k))) throw new ScanError(j, 'invalid \\u escape in string (needs four hex digits)');
        }
        j += 6;
      } else if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
        j += 2;
      } else {
        throw new ScanError(j, `invalid escape in string: \\${j + 1 < end ? s[j + 1] : ''}`);
      }
    } else if (c < 0x20) {
      throw new ScanError(j, c === 0x0a ? 'line break inside a string (unterminated string?)' : 'unescaped control character inside a string');
    } else {
      j++;
    }
  }
  throw new ScanError(i, 'unterminated string');
}

function scanNumber(s: string, i: number): number {
  let j = i;
  if (s.charCodeAt(j) === 0x2d) j++;
  const first = s.charCodeAt(j);
  if (first === 0x30) j++;
  else if (isDigit(first)) while (isDigit(s.charCodeAt(j))) j++;
  else throw new ScanError(j, `invalid number: expected a digit, found ${describe(s, j)}`);
  if (s.charCodeAt(j) === 0x2e) {
    j++;
    if (!isDigit(s.charCodeAt(j))) throw new ScanError(j, `invalid number: expected a digit after ".", found ${describe(s, j)}`);
    while (isDigit(s.charCodeAt(j))) j++;
  }
  const e = s.charCodeAt(j);
  if (e === 0x65 || e === 0x45) {
    j++;
    const sign = s.charCodeAt(j);
    if (sign === 0x2b || sign === 0x2d) j++;
    if (!isDigit(s.charCodeAt(j))) throw new ScanError(j, `invalid number: expected an exponent digit, found ${describe(s, j)}`);
    while (isDigit(s.charCodeAt(j))) j++;
  }
  return j;
}

function scanLiteral(s: string, i: number, word: string): number {
  for (let k = 0; k < word.length; k++) {
    if (s.charCodeAt(i + k) !== word.charCodeAt(k)) {
      throw new ScanError(i + k, `unexpected ${describe(s, i + k)}: expected a value`);
    }
  }
  return i + word.length;
}

/** The first error of `s` (its offset and a plain-language reason), or ok; `maxDepth` bounds nesting (the top-level container is depth 1). */
export function scanJson(s: string, maxDepth = Number.POSITIVE_INFINITY): ScanResult {
  // 1 = object, 0 = array, indexed by depth.
  // Nesting cannot go deeper than the text is long.
  const kinds = new Uint8Array(Math.min(maxDepth, s.length) + 2);
  let depth = 0;
  let state: number = State.Value;
  let afterComma = false;
  let i = 0;
  const end = s.length;
  try {
    for (;;) {
      let c = s.charCodeAt(i);
      while (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d) c = s.charCodeAt(++i);
      if (i >= end) {
        if (state === State.After && depth === 0) return { ok: true };
        throw new ScanError(i, i === 0 ? 'the document is empty' : 'unexpected end of input');
      }
      switch (state) {
        case State.Value:
        case State.ArrayFirst: {
          if (state === State.ArrayFirst && c === 0x5d) {
            depth--;
            i++;
            state = State.After;
            break;
          }
          if (c === 0x7b || c === 0x5b) {
            depth++;
            if (depth > maxDepth) return { ok: false, kind: 'depth', pos: i };
            kinds[depth] = c === 0x7b ? 1 : 0;
            i++;
            state = c === 0x7b ? State.ObjectFirst : State.ArrayFirst;
            break;
          }
          if (c === 0x22) i = scanString(s, i);
          else if (c === 0x2d || isDigit(c)) i = scanNumber(s, i);
          else if (c === 0x74) i = scanLiteral(s, i, 'true');
          else if (c === 0x66) i = scanLiteral(s, i, 'false');
          else if (c === 0x6e) i = scanLiteral(s, i, 'null');
          else if (afterComma && (c === 0x5d || c === 0x7d)) throw new ScanError(i, `trailing comma before ${describe(s, i)}`);
          else if (c === 0x27) throw new ScanError(i, 'unexpected "\'": strings must use double quotes');
          else throw new ScanError(i, `unexpected ${describe(s, i)}: expected a value`);
          state = State.After;
          break;
        }
        case State.ObjectFirst:
        case State.Key: {
          if (state === State.ObjectFirst && c === 0x7d) {
            depth--;
            i++;
            state = State.After;
            break;
          }
          if (c !== 0x22) {
            if (afterComma && c === 0x7d) throw new ScanError(i, 'trailing comma before "}"');
            throw new ScanError(i, `unexpected ${describe(s, i)}: expected a property name in double quotes`);
          }
          i = scanString(s, i);
          state = State.Colon;
          break;
        }
        case State.Colon: {
          if (c !== 0x3a) throw new ScanError(i, `unexpected ${describe(s, i)}: expected ":" after the property name`);
          i++;
          state = State.Value;
          break;
        }
        case State.After: {
          if (depth === 0) throw new ScanError(i, `unexpected ${describe(s, i)} after the end of the JSON value`);
          const inObject = kinds[depth] === 1;
          if (c === 0x2c) {
            i++;
            state = inObject ? State.Key : State.Value;
            afterComma = true;
            continue;
          }
          if ((c === 0x5d && !inObject) || (c === 0x7d && inObject)) {
            depth--;
            i++;
            break;
          }
          throw new ScanError(i, `unexpected ${describe(s, i)}: expected "," or "${inObject ? '}' : ']'}"`);
        }
      }
      afterComma = false;
    }
  } catch (err) {
    if (err instanceof ScanError) return { ok: false, kind: 'syntax', pos: err.pos, message: err.message };
    throw err;
  }
}

/**
 * Where JSON text first goes wrong, for people: the offset and the reason as a sentence
 * ("Trailing comma before \"}\""); undefined when the text is valid JSON.
 */
export function jsonErrorAt(text: string): { offset: number; message: string } | undefined {
  const result = scanJson(text);
  if (result.ok) return undefined;
  const message = result.kind === 'depth' ? 'nested too deeply' : result.message;
  return { offset: result.pos, message: message.charAt(0).toUpperCase() + message.slice(1) };
}
