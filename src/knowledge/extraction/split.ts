/**
 * Cutting long record text into parts of at most `max` UTF-16 code units.
 * Each cut is chosen inside a window of `max` characters from the current
 * position, so the work is linear in the text length whatever its shape
 * (one 10 MB line, or millions of tiny sentences).
 */

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

/**
 * The segmenter sees a little past the window so that a boundary at the
 * window's edge is a real one, not an artefact of cutting the text there.
 */
const LOOKAHEAD = 256;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0xa0 || c === 0x3000 || (c >= 0x2000 && c <= 0x200a);
}

/** Largest end (in (pos, limit]) of text followed by a blank line, or -1. */
function paragraphCut(text: string, pos: number, limit: number): number {
  // Walks backwards and never past `pos`: lastIndexOf would run to the start
  // of the text on every window of a long single line, which is quadratic.
  let lineEnd = -1;
  let blank = true;
  for (let k = Math.min(limit, text.length - 1); k > pos; k--) {
    const c = text.charCodeAt(k);
    if (c === 0x0a) {
      // (k, lineEnd) holds only spaces/tabs: a blank line, so the paragraph before it ends at k.
      if (lineEnd !== -1 && blank) return k;
      lineEnd = k;
      blank = true;
    } else if (c !== 0x20 && c !== 0x09) {
      blank = false;
    }
  }
  return -1;
}

/** Largest sentence boundary in (pos, limit], or -1. */
function sentenceCut(text: string, pos: number, limit: number): number {
  const slice = text.slice(pos, Math.min(text.length, limit + LOOKAHEAD));
  // containing() asks ICU for the boundary before one index instead of
  // walking every sentence from the window's start, which matters for text
  // such as "Hi!Hi!Hi!..." with hundreds of sentences per window.
  const seg = sentences.segment(slice).containing(limit - pos);
  if (seg === undefined) return -1;
  // A sentence owns the white space after it; when only that lies past the
  // limit, the whole sentence fits.
  if (slice.slice(limit - pos, seg.index + seg.segment.length).trim() === '') return limit;
  return seg.index === 0 ? -1 : pos + seg.index;
}

function spaceCut(text: string, pos: number, limit: number): number {
  for (let k = limit; k > pos; k--) {
    if (isSpace(text.charCodeAt(k))) return k;
  }
  return -1;
}

function hardCut(text: string, limit: number): number {
  const before = text.charCodeAt(limit - 1);
  const after = text.charCodeAt(limit);
  // Never leave half of a surrogate pair on each side.
  if (before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff) return limit - 1;
  return limit;
}

/** `text` cut to at most `max` code units, ending in `…` when cut, never halving a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - 1;
  const c = text.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut--;
  return `${text.slice(0, cut)}…`;
}

/** Limit applied when the caller passes nonsense; two code units is the least that holds any character. */
export function effectiveMax(max: number): number {
  if (!Number.isFinite(max)) return 2000;
  return Math.max(2, Math.floor(max));
}

/**
 * Splits `text` into trimmed, non-empty parts of at most `max` characters:
 * at the last blank line that fits, else the last sentence end that fits,
 * else the last white space that fits, else hard at the limit.
 */
export function splitText(text: string, max: number): string[] {
  const m = effectiveMax(max);
  const parts: string[] = [];
  const len = text.length;
  let pos = 0;
  while (pos < len) {
    while (pos < len && isSpace(text.charCodeAt(pos))) pos++;
    if (pos >= len) break;
    let cut: number;
    if (len - pos <= m) cut = len;
    else {
      const limit = pos + m;
      cut = paragraphCut(text, pos, limit);
      if (cut < 0) cut = sentenceCut(text, pos, limit);
      if (cut < 0) cut = spaceCut(text, pos, limit);
      if (cut < 0) cut = hardCut(text, limit);
    }
    const part = text.slice(pos, cut).trim();
    if (part !== '') parts.push(part);
    pos = cut;
  }
  return parts;
}
