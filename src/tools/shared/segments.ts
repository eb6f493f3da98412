/**
 * Unicode segmentation of long texts. V8's Intl.Segmenter gets slower per segment as the string
 * grows (quadratic: 100 kB of text took seconds in Node 20), so texts are segmented in pieces cut
 * where no segment can span the cut.
 */

/** Longest piece handed to Intl.Segmenter at once. */
const pieceLength = 2000;

/**
 * Pieces of `text` cut where no segment can span the cut: after sentence-ending punctuation or a
 * line break when possible (so sentences stay whole), else at a space, else anywhere outside a
 * surrogate pair (a single 2 000-character "word").
 */
export function* pieces(text: string, length = pieceLength): Generator<string> {
  let start = 0;
  while (text.length - start > length) {
    const window = text.slice(start, start + length);
    let cut = Math.max(...[...window.matchAll(/[.!?。！？]\s+|\n/g)].map((m) => m.index + m[0].length), 0);
    if (cut === 0) cut = window.search(/\s\S*$/) + 1;
    if (cut <= 0) cut = /[\uD800-\uDBFF]/.test(window.charAt(length - 1)) ? length - 1 : length;
    yield window.slice(0, cut);
    start += cut;
  }
  yield text.slice(start);
}

/** The segments of `text`, piece by piece. */
export function* segments(segmenter: Intl.Segmenter, text: string): Generator<Intl.SegmentData> {
  for (const piece of pieces(text)) yield* segmenter.segment(piece);
}
