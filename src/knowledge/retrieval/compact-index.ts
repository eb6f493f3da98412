/**
 * An index in the form that crosses threads (`KnowledgeIndex.toCompact` / `fromCompact`): typed
 * arrays, which `postMessage` transfers without copying, and the term and surface-word lists.
 * The records themselves stay with the receiver, which had them first.
 */
import type { StringList } from './string-column.js';
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
  start: OffsetArray;
  slot: SlotArray;
  titleTf: TfArray;
  textTf: TfArray;
  /** Analysed lengths of each record's title and text, by slot (the records' order). */
  titleLen: Int32Array<ArrayBuffer>;
  textLen: Int32Array<ArrayBuffer>;
  surfaces: CompactSurfaces;
}

/**
 * A compact index as an index is made from it (`KnowledgeIndex.fromCompactInSteps`): its terms and
 * surface words may be lists whose strings are made as they are read (a snapshot's, decoded in
 * runs: index-snapshot.ts), so that a load holds no string per term or word beside the index's own
 * packed copies (docs/indexing.md, "Session 21").
 */
export type CompactIndexSource = Omit<CompactIndex, 'terms' | 'surfaces'> & {
  terms: StringList;
  surfaces: Omit<CompactSurfaces, 'words' | 'terms'> & { words: StringList; terms: StringList };
};

/**
 * The postings' arrays are as narrow as their values allow (issue 14, docs/indexing.md "Session
 * 10: memory per knowledge base"): a small knowledge base's postings take 4 bytes each (a 16-bit
 * slot, two 8-bit frequencies) instead of 12. The width is chosen when the arrays are made (a
 * compaction, a snapshot load), which is the only time they are written.
 */
/** Positions in the postings (`start`): 16-bit while there are at most 65,535 postings. */
export type OffsetArray = Uint16Array<ArrayBuffer> | Int32Array<ArrayBuffer>;
/** Record slots: 16-bit while every slot is below 65,536. */
export type SlotArray = Uint16Array<ArrayBuffer> | Int32Array<ArrayBuffer>;
/** Title and text frequencies: 8-bit, 16-bit or 32-bit, the narrowest that holds the largest. */
export type TfArray = Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Int32Array<ArrayBuffer>;

/**
 * Document frequencies held by an index: as narrow as its slots allow (a term is in at most every
 * record), 1 byte each in a small knowledge base (issue 14, Session 12). The compact form's and the
 * snapshot's are Int32.
 */
export type CountArray = Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Int32Array<ArrayBuffer>;

/** A count array of `length` zeros that holds counts up to `largest`. */
export function countArray(length: number, largest: number): CountArray {
  return largest < 0x100 ? new Uint8Array(length) : largest < 0x10000 ? new Uint16Array(length) : new Int32Array(length);
}

/** Whether every count up to `largest` fits in `counts`. */
export function countsHold(counts: CountArray, largest: number): boolean {
  return counts instanceof Int32Array || largest < (counts instanceof Uint8Array ? 0x100 : 0x10000);
}

/** Bytes per slot when every slot is below `slots`: 2 up to 65,536 records, else 4. */
export function slotBytesFor(slots: number): 2 | 4 {
  return slots <= 0x10000 ? 2 : 4;
}

/** Bytes per frequency when the largest is `maxTf`. */
export function tfBytesFor(maxTf: number): 1 | 2 | 4 {
  return maxTf < 0x100 ? 1 : maxTf < 0x10000 ? 2 : 4;
}

export function offsetArray(length: number, largest: number): OffsetArray {
  return largest < 0x10000 ? new Uint16Array(length) : new Int32Array(length);
}

export function slotArray(length: number, slots: number): SlotArray {
  return slotBytesFor(slots) === 2 ? new Uint16Array(length) : new Int32Array(length);
}

export function tfArray(length: number, maxTf: number): TfArray {
  const bytes = tfBytesFor(maxTf);
  return bytes === 1 ? new Uint8Array(length) : bytes === 2 ? new Uint16Array(length) : new Int32Array(length);
}

/** The buffers to transfer with a compact index (each once). */
export function transferables(compact: CompactIndex): ArrayBuffer[] {
  const arrays = [compact.df, compact.start, compact.slot, compact.titleTf, compact.textTf, compact.titleLen, compact.textLen, compact.surfaces.refs, compact.surfaces.first, compact.surfaces.pos];
  return [...new Set(arrays.map((a) => a.buffer))];
}
