/**
 * Inline Markdown to plain text, one line at a time. Every pattern is bounded
 * (character classes that stop at the next bracket, capped repeats) because
 * uploads can hold a 10 MB line and a backtracking pattern would hang on it.
 */

const IMAGE_INLINE = /!\[[^[\]\n]{0,1000}\]\([^()\n]{0,2000}\)/g;
const IMAGE_REF = /!\[[^[\]\n]{0,1000}\]\[[^[\]\n]{0,1000}\]/g;
const LINK_INLINE = /\[([^[\]\n]{0,1000})\]\([^()\n]{0,2000}\)/g;
const LINK_REF = /\[([^[\]\n]{0,1000})\]\[[^[\]\n]{0,1000}\]/g;
const AUTOLINK = /<((?:https?|ftp|mailto):[^<>\s]{1,2000})>/gi;
const HTML_TAG = /<\/?[A-Za-z][A-Za-z0-9-]{0,50}(?:\s[^<>]{0,2000})?\/?>/g;
const STRONG_OR_STRIKE = /\*\*+|~~+/g;
// A whole `*` or `_` run that opens (after start/space/punctuation, before a
// non-space) or closes emphasis (after a non-space, before end/space/punctuation).
// Runs between two letters (snake_case, 5*3), runs surrounded by spaces (2 * 3)
// and escaped ones stay. Found and judged in code, not by one pattern: with the
// `u` flag its \p{…} classes need, V8 keeps a backtrack entry per character of
// a run in a two-byte string (any text with a character beyond Latin-1), and a
// run of millions of underscores overflowed that stack (RangeError).
const STAR = 0x2a;
const UNDERSCORE = 0x5f;
const BACKSLASH = 0x5c;
const SPACE = /^\s$/u;
const PUNCTUATION_OR_SYMBOL = /^[\p{P}\p{S}]$/u;

/** What borders a run: nothing (start or end of the line), white space, punctuation or a symbol, or anything else. */
const Side = { Edge: 0, Space: 1, Mark: 2, Other: 3 } as const;
type Side = (typeof Side)[keyof typeof Side];

/** The ASCII characters' sides, looked up rather than matched (a hostile line has millions of runs). */
const ASCII_SIDES = Uint8Array.from({ length: 128 }, (_, code) => classify(String.fromCharCode(code)));

function classify(char: string): Side {
  if (SPACE.test(char)) return Side.Space;
  return PUNCTUATION_OR_SYMBOL.test(char) ? Side.Mark : Side.Other;
}

function side(codePoint: number | undefined): Side {
  if (codePoint === undefined) return Side.Edge;
  return codePoint < 128 ? (ASCII_SIDES[codePoint] as Side) : classify(String.fromCodePoint(codePoint));
}

/** The code point that ends just before `at` (a surrogate pair whole), or undefined at the start. */
function codePointBefore(line: string, at: number): number | undefined {
  if (at === 0) return undefined;
  const low = line.charCodeAt(at - 1);
  if (at >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = line.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return line.codePointAt(at - 2);
  }
  return low;
}

/** Removes the `*` and `_` runs that open or close emphasis (the rule above). */
export function stripEmphasis(line: string): string {
  let out = '';
  let last = 0;
  const length = line.length;
  let start = 0;
  while (start < length) {
    const code = line.charCodeAt(start);
    if (code !== STAR && code !== UNDERSCORE) {
      start++;
      continue;
    }
    let end = start + 1;
    for (let next = line.charCodeAt(end); next === STAR || next === UNDERSCORE; next = line.charCodeAt(++end));
    const previous = codePointBefore(line, start);
    const before = side(previous);
    const after = side(line.codePointAt(end));
    const opens = (before === Side.Edge || before === Side.Space || before === Side.Mark) && after !== Side.Edge && after !== Side.Space;
    const closes = before !== Side.Edge && before !== Side.Space && (after === Side.Edge || after === Side.Space || after === Side.Mark);
    if (previous !== BACKSLASH && (opens || closes)) {
      out += line.slice(last, start);
      last = end;
    }
    start = end;
  }
  return last === 0 ? line : out + line.slice(last);
}

const CODE_TICKS = /`+/g;
const ESCAPE = /\\([!-/:-@[-`{-~])/g;

const MARKUP = /[!<>*_~`\\&[\]]|[ \t]{2}/;

// Removed images and tags leave double spaces behind; indentation stays.
const INNER_SPACES = /(\S)[ \t]{2,}(?=\S)/g;

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

const ENTITY = /^&(?:(amp|lt|gt|quot|apos|nbsp)|#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6}));/;

function entityText(whole: string, name?: string, dec?: string, hex?: string): string {
  if (name) return NAMED[name] ?? whole;
  const cp = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? '', 16);
  // Control characters and out-of-range numbers stay as written rather than
  // sneaking characters past the decoder's clean-up.
  if (!Number.isFinite(cp) || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
    return whole;
  }
  return String.fromCodePoint(cp);
}

/**
 * A few HTML entities. Done with indexOf and a short anchored match per `&`
 * rather than one global replace with a callback, which costs about a
 * microsecond per match and a hostile line can hold millions of them.
 */
function decodeEntities(line: string): string {
  let amp = line.indexOf('&');
  if (amp === -1) return line;
  const parts: string[] = [];
  let last = 0;
  while (amp !== -1) {
    const m = ENTITY.exec(line.slice(amp, amp + 12));
    if (m) {
      const replacement = entityText(m[0], m[1], m[2], m[3]);
      if (replacement !== m[0]) {
        parts.push(line.slice(last, amp), replacement);
        last = amp + m[0].length;
      }
    }
    amp = line.indexOf('&', amp + 1);
  }
  if (last === 0) return line;
  parts.push(line.slice(last));
  return parts.join('');
}

/** Strips HTML comments across lines; `state.open` carries an unclosed `<!--` to the next line. */
export function stripComments(line: string, state: { open: boolean }): string {
  let out = '';
  let pos = 0;
  for (;;) {
    if (state.open) {
      const close = line.indexOf('-->', pos);
      if (close === -1) return out;
      state.open = false;
      pos = close + 3;
    }
    const open = line.indexOf('<!--', pos);
    if (open === -1) return out + line.slice(pos);
    out += line.slice(pos, open);
    state.open = true;
    pos = open + 4;
  }
}

/** Links keep their text, images and HTML tags go, emphasis and code markers go, escapes and entities resolve. */
export function cleanInline(line: string): string {
  // Plain prose (the usual case) has nothing to clean; skip a dozen passes over it.
  if (!MARKUP.test(line)) return line;
  const plain = line
    .replace(IMAGE_INLINE, '')
    .replace(IMAGE_REF, '')
    .replace(LINK_INLINE, '$1')
    .replace(LINK_REF, '$1')
    .replace(AUTOLINK, '$1')
    .replace(HTML_TAG, '')
    .replace(STRONG_OR_STRIKE, '');
  return decodeEntities(stripEmphasis(plain).replace(CODE_TICKS, '').replace(ESCAPE, '$1').replace(INNER_SPACES, '$1 '));
}
