/**
 * An index in the form that crosses threads (`KnowledgeIndex.toCompact` / `fromCompact`): typed
 * arrays, which `postMessage` transfers without copying, and the term and surface-word lists.
 * The records themselves stay with the receiver, which had them first.
 */
import type { CompactSurfaces } from './surface-words.js';

export interface CompactIndex {
  language: string;
  languagePinned: boolean;
  options: { k1: number; b: number; titleWeight: number };
  /** Terms by id. */
  terms: string[];
  /** Records containing each term, by term id. */
  df: Int32Array<ArrayBuffer>;
  /** Postings of term t: indexes start[t] … start[t + 1] - 1 of `slot`, `titleTf` and `textTf`. */
  start: Int32Array<ArrayBuffer>;
  slot: Int32Array<ArrayBuffer>;
  titleTf: Int32Array<ArrayBuffer>;
  textTf: Int32Array<ArrayBuffer>;
  /** Analysed lengths of each record's title and text, by slot (the records' order). */
  titleLen: Int32Array<ArrayBuffer>;
  textLen: Int32Array<ArrayBuffer>;
  surfaces: CompactSurfaces;
}

/** The buffers to transfer with a compact index (each once). */
export function transferables(compact: CompactIndex): ArrayBuffer[] {
  const arrays = [compact.df, compact.start, compact.slot, compact.titleTf, compact.textTf, compact.titleLen, compact.textLen, compact.surfaces.refs, compact.surfaces.first, compact.surfaces.pos];
  return [...new Set(arrays.map((a) => a.buffer))];
}
