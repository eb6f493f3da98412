/**
 * The per-record accumulators of a search, shared by every index in the thread: a search runs
 * from start to end synchronously, so one set serves all knowledge bases instead of 28 bytes per
 * record held by each. Entries are valid for the current `epoch` only (reset lazily).
 */
export interface SearchScratch {
  acc: Float64Array;
  mark: Int32Array;
  titleNorm: Float64Array;
  textNorm: Float64Array;
  epoch: number;
}

let scratch: SearchScratch = { acc: new Float64Array(0), mark: new Int32Array(0), titleNorm: new Float64Array(0), textNorm: new Float64Array(0), epoch: 0 };

/** The accumulators for a search over `slots` records, with a new epoch. */
export function scratchFor(slots: number): SearchScratch {
  if (scratch.acc.length < slots) {
    const n = Math.max(slots, scratch.acc.length * 2, 64);
    scratch = { acc: new Float64Array(n), mark: new Int32Array(n), titleNorm: new Float64Array(n), textNorm: new Float64Array(n), epoch: 0 };
  }
  if (++scratch.epoch >= 0x7fffffff) {
    scratch.mark.fill(0);
    scratch.epoch = 1;
  }
  return scratch;
}
