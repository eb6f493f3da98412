import { lengthNorm, saturate } from './bm25.js';
import { topK } from './top-k.js';

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

/** What a posting's BM25F contribution reads of an index. */
export interface Bm25fFields {
  titleLen: Int32Array;
  textLen: Int32Array;
  avgTitle: number;
  avgText: number;
  k1: number;
  b: number;
  titleWeight: number;
}

/**
 * One search's scores per record slot, on the shared scratch: the one place a posting's BM25F
 * contribution is added, so the full search and the pruned one (max-score.ts) add exactly the same
 * numbers in the same way and rank alike, ties included.
 */
export class ScoreAccumulator {
  /** Slots met by this search, in the order first met. */
  readonly touched: number[] = [];
  private readonly s: SearchScratch;
  private readonly epoch: number;

  constructor(
    slots: number,
    private readonly f: Bm25fFields,
  ) {
    this.s = scratchFor(slots);
    this.epoch = this.s.epoch;
  }

  /** The scores by slot (valid for the slots in `touched`). */
  get scores(): Float64Array {
    return this.s.acc;
  }

  /** Adds a posting of slot `d` with weight `w`, meeting the slot first when this search has not. */
  add(d: number, titleTf: number, textTf: number, w: number): void {
    const { acc, mark, titleNorm, textNorm } = this.s;
    if (mark[d] !== this.epoch) {
      const f = this.f;
      mark[d] = this.epoch;
      acc[d] = 0;
      this.touched.push(d);
      titleNorm[d] = lengthNorm(f.titleLen[d] as number, f.avgTitle, f.b);
      textNorm[d] = lengthNorm(f.textLen[d] as number, f.avgText, f.b);
    }
    this.contribute(d, titleTf, textTf, w);
  }

  /** Adds a posting only when this search has already met its slot. */
  addIfMet(d: number, titleTf: number, textTf: number, w: number): void {
    if (this.s.mark[d] === this.epoch) this.contribute(d, titleTf, textTf, w);
  }

  /** The best `limit` met slots with a positive score, highest first, ties by slot. */
  best(limit: number): { slot: number; score: number }[] {
    const { acc } = this.s;
    const { touched } = this;
    let kept = 0;
    for (const d of touched) if ((acc[d] as number) > 0) touched[kept++] = d;
    touched.length = kept;
    return topK(touched, limit, (x, y) => (acc[x] as number) > (acc[y] as number) || (acc[x] === acc[y] && x < y)).map((d) => ({ slot: d, score: acc[d] as number }));
  }

  private contribute(d: number, titleTf: number, textTf: number, w: number): void {
    const { acc, titleNorm, textNorm } = this.s;
    const f = this.f;
    const tf = (f.titleWeight * titleTf) / (titleNorm[d] as number) + textTf / (textNorm[d] as number);
    acc[d] = (acc[d] as number) + w * saturate(tf, f.k1);
  }
}
