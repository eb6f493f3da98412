/**
 * Cuts an answer into small chunks for `token` SSE events. Concatenating the chunks gives the
 * answer back exactly (whitespace, markers and all); each chunk is a word with the spaces that
 * follow it, so a client can render as it goes.
 */

/** Text without spaces (CJK, Thai, long URLs) is cut into pieces of this many graphemes. */
const MAX_CHUNK_GRAPHEMES = 8;
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

export function tokensOf(answer: string): string[] {
  const out: string[] = [];
  for (const m of answer.matchAll(/\s+|\S+\s*/g)) {
    const chunk = m[0];
    if (chunk.length <= MAX_CHUNK_GRAPHEMES * 2) {
      out.push(chunk);
      continue;
    }
    // Long chunk: split at grapheme boundaries so no emoji or accented letter is torn apart.
    let piece = '';
    let count = 0;
    for (const g of graphemes.segment(chunk)) {
      piece += g.segment;
      if (++count === MAX_CHUNK_GRAPHEMES) {
        out.push(piece);
        piece = '';
        count = 0;
      }
    }
    if (piece.length > 0) out.push(piece);
  }
  return out;
}
