/**
 * Finds where JSON text first goes wrong. JSON.parse does not always say
 * (V8: `Unexpected token ' ', "…" is not valid JSON`), so invalid text is
 * scanned again by this small strict reader, which only reports the first
 * error's offset and a plain-language reason.
 */

class Found extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

export function locateJsonError(text: string): { offset: number; message: string } | undefined {
  let i = 0;
  const fail = (message: string, at = i): never => {
    throw new Found(at, message);
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const describe = (c: string | undefined) => (c === undefined ? 'end of input' : `"${c}"`);

  const string = () => {
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) fail('Unterminated string');
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else fail('Invalid escape sequence in string');
      } else if ((c as string).charCodeAt(0) < 0x20) {
        fail('Unescaped control character (e.g. a line break) in string');
      } else i++;
    }
  };

  const value = (depth: number): void => {
    if (depth > 5000) fail('Nested too deeply');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(text[i] === '}' ? 'Expected a double-quoted property name (is there a trailing comma?)' : 'Expected a double-quoted property name');
        string();
        ws();
        if (text[i] !== ':') fail(`Expected ":" after the property name, found ${describe(text[i])}`);
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`Expected "," or "}" after a property value, found ${describe(text[i])}`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] === ']') fail('Expected a value (is there a trailing comma?)');
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`Expected "," or "]" after an array element, found ${describe(text[i])}`);
      }
    }
    if (c === '"') return string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      numberPattern.lastIndex = i;
      const match = numberPattern.exec(text);
      if (!match) fail('Invalid number');
      i += (match as RegExpExecArray)[0].length;
      return;
    }
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    if (c === "'") fail('Strings must use double quotes');
    fail(c === undefined ? 'Unexpected end of input: a value is missing' : `Unexpected ${describe(c)}`);
  };

  try {
    value(0);
    ws();
    if (i < text.length) fail(`Unexpected ${describe(text[i])} after the JSON value`);
    return undefined;
  } catch (error) {
    if (error instanceof Found) return { offset: error.offset, message: error.message };
    throw error;
  }
}
