/** Where an offset of a text is, as people count: the one line-and-column helper. */

/**
 * 1-based line and column of a position. Lines are LF-separated (the decoder
 * already turned CRLF and CR into LF); columns count Unicode code points, so
 * an emoji is one column, as in most editors' status bars.
 */
export function lineColumn(s: string, pos: number): { line: number; column: number } {
  const p = Math.min(Math.max(pos, 0), s.length);
  let line = 1;
  let lineStart = 0;
  for (let nl = s.indexOf('\n'); nl !== -1 && nl < p; nl = s.indexOf('\n', nl + 1)) {
    line++;
    lineStart = nl + 1;
  }
  let column = 1;
  for (let k = lineStart; k < p; k++) {
    const c = s.charCodeAt(k);
    // The low half of a surrogate pair is not a column of its own.
    if (c >= 0xdc00 && c <= 0xdfff && k > lineStart) {
      const prev = s.charCodeAt(k - 1);
      if (prev >= 0xd800 && prev <= 0xdbff) continue;
    }
    column++;
  }
  return { line, column };
}
