/**
 * A bound on how much a PDF's Flate streams expand, checked before pdf-lib or pdf.js reads the
 * file. A "flate bomb" is a small stream that inflates to gigabytes (about 1,000:1 per Flate
 * layer, a million to one for two); neither library bounds what it inflates, so one 1 MB upload
 * kept a tool thread busy for its whole time limit and grew the process by hundreds of MB.
 *
 * The scan walks the raw file for `stream … endstream` pairs (streams are always top-level objects,
 * never inside object streams, ISO 32000-1 §7.5.7), and inflates every stream whose dictionary
 * names `/FlateDecode` with fflate's streaming decoder, counting output bytes and stopping as soon
 * as the budget is spent. Every Flate stream counts, whatever its `/Subtype` claims, since pdf.js
 * decodes a content stream whatever its dictionary says. Chained filters (`[/FlateDecode
 * /FlateDecode]`) inflate layer by layer within the same budget. Pure (no Node APIs): the pages run
 * it too. Streams encrypted with an empty user password cannot be inflated here and are bounded
 * only by the thread's time and memory limits (thread-pool.ts).
 */
import { Inflate, Unzlib } from 'fflate';
import { ToolInputError } from '../types.js';

/** The least budget any PDF gets, whatever its size (fonts and content of a small file). */
export const minInflateBudget = 16 * 1024 * 1024;
/** The budget never passes this, however large the file. */
export const maxInflateBudget = 512 * 1024 * 1024;
/** Ratio of inflated to file bytes allowed above the minimum: real PDFs are far below it. */
export const inflateRatio = 32;

/** What a PDF of `size` bytes may inflate to, in total. */
export function inflateBudgetFor(size: number): number {
  return Math.min(maxInflateBudget, Math.max(minInflateBudget, size * inflateRatio));
}

const chunk = 16 * 1024;

class OverBudget extends Error {}

/**
 * Inflates `data` (zlib-wrapped as PDFs write it, or raw deflate as a few producers do), calling
 * `sink` with each piece, and throws OverBudget when `remaining` bytes are passed. Damaged data
 * just ends the count: the libraries report damage themselves.
 */
function inflateCounted(data: Uint8Array, remaining: number, sink?: (piece: Uint8Array) => void): number {
  let produced = 0;
  const onData = (piece: Uint8Array): void => {
    produced += piece.length;
    if (produced > remaining) throw new OverBudget();
    sink?.(piece);
  };
  const [cmf = 0, flg = 0] = data;
  const zlibHeader = data.length >= 2 && (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;
  const stream = zlibHeader ? new Unzlib(onData) : new Inflate(onData);
  try {
    for (let at = 0; at < data.length; at += chunk) stream.push(data.subarray(at, at + chunk), at + chunk >= data.length);
  } catch (error) {
    if (error instanceof OverBudget) throw error;
    // Damaged or truncated data: what was produced so far counts.
  }
  return produced;
}

const encoder = new TextEncoder();
const streamWord = encoder.encode('stream');
const endstreamWord = encoder.encode('endstream');

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0] ?? 0;
  for (let i = haystack.indexOf(first, from); i !== -1 && i <= haystack.length - needle.length; i = haystack.indexOf(first, i + 1)) {
    let match = true;
    for (let j = 1; j < needle.length; j++) {
      if (haystack[i + j] !== needle[j]) {
        match = false;
        break;
      }
    }
    if (match) return i;
  }
  return -1;
}

/** The number of Flate layers a stream's dictionary (the text just before `stream`) names. */
function flateLayers(bytes: Uint8Array, streamAt: number): number {
  const from = Math.max(0, streamAt - 2048);
  const head = String.fromCharCode(...bytes.subarray(from, streamAt));
  // The dictionary of this stream starts after the previous `obj` keyword.
  const dictionary = head.slice(Math.max(0, head.lastIndexOf('obj') + 3));
  return (dictionary.match(/\/(FlateDecode|Fl)(?![A-Za-z])/g) ?? []).length;
}

/**
 * Refuses (413, `too_large`) a PDF whose Flate streams inflate to more than its budget
 * (`inflateBudgetFor(bytes.length)` unless given).
 */
export function assertInflateBudget(bytes: Uint8Array, field: string, label = 'The file', budget = inflateBudgetFor(bytes.length)): void {
  let remaining = budget;
  let at = 0;
  try {
    for (;;) {
      const keyword = indexOf(bytes, streamWord, at);
      if (keyword === -1) return;
      // `endstream` contains `stream`; a real stream keyword is not preceded by `end`.
      const isEnd = keyword >= 3 && bytes[keyword - 3] === 0x65 && bytes[keyword - 2] === 0x6e && bytes[keyword - 1] === 0x64;
      let start = keyword + streamWord.length;
      if (isEnd) {
        at = start;
        continue;
      }
      if (bytes[start] === 0x0d) start++;
      if (bytes[start] === 0x0a) start++;
      const end = indexOf(bytes, endstreamWord, start);
      const stop = end === -1 ? bytes.length : end;
      let layers = flateLayers(bytes, keyword);
      let data = bytes.subarray(start, stop);
      while (layers > 0) {
        layers--;
        if (layers === 0) {
          remaining -= inflateCounted(data, remaining);
        } else {
          // An inner layer follows: keep this layer's output (bounded by the budget) to inflate it.
          const pieces: Uint8Array[] = [];
          const produced = inflateCounted(data, remaining, (piece) => pieces.push(piece.slice()));
          remaining -= produced;
          data = concat(pieces, produced);
        }
      }
      at = stop + (end === -1 ? 0 : endstreamWord.length);
      if (end === -1) return;
    }
  } catch (error) {
    if (!(error instanceof OverBudget)) throw error;
    throw new ToolInputError(
      `${label} holds compressed streams that expand to more than ${Math.round(budget / 1024 / 1024)} MB (a "decompression bomb" or an unusually compressible file); it is refused.`,
      { field, kind: 'too_large' },
    );
  }
}

function concat(pieces: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let offset = 0;
  for (const piece of pieces) {
    out.set(piece, offset);
    offset += piece.length;
  }
  return out;
}
