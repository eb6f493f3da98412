/**
 * The exact top k of a BM25F search without scoring most postings of its commonest terms
 * (MaxScore, Turtle & Flood 1995), for KnowledgeIndex.searchWeighted. Issue 14: a question to a
 * 100,000-record knowledge base scored ~80,000 postings (~3 ms); ~4% of them could change its top 6,
 * the rest belonging to words most records have ("question", "spare parts", chat-speak readings).
 *
 * A term's contribution to a record is `w · saturate(tf)`, below `w · (k1 + 1)` (its bound), and
 * never negative. Pass A scores the terms of highest bound first until the bounds of the terms
 * left sum to less than the k-th best partial score: a record none of the scored terms has cannot
 * reach the top k then, so the candidates are the records pass A met. Pass B scores the candidates
 * again from zero with every term in the question's order, exactly as the full search adds them
 * (one `ScoreAccumulator` adds every posting for both, in the same order: the same scores, bit for
 * bit, and so the same ties); the terms left by pass A are only read for the candidates (a mark
 * test per posting).
 * Undefined when that cannot be shown or would not pay: the caller then scores every posting.
 */
import { idf } from './bm25.js';
import type { CountArray, OffsetArray, SlotArray, TfArray } from './compact-index.js';
import { ScoreAccumulator } from './search-scratch.js';

/** What a search reads of an index (KnowledgeIndex's fields). */
export interface PostingsView {
  /** Live records, and slots in use. */
  n: number;
  slots: number;
  avgTitle: number;
  avgText: number;
  k1: number;
  b: number;
  titleWeight: number;
  live: Uint8Array;
  titleLen: Int32Array;
  textLen: Int32Array;
  df: CountArray;
  baseTerms: number;
  baseStart: OffsetArray;
  baseSlot: SlotArray;
  baseTitleTf: TfArray;
  baseTextTf: TfArray;
  /** Postings added since the last compaction, per term id: [slot, titleTf, textTf, …]. */
  recent: ReadonlyMap<number, number[]>;
  termId(term: string): number | undefined;
}

/**
 * Fewer postings than this are scored in full: pruning would not pay for its second pass. 20,000
 * until session 14; `bench/kb-cliff.ts --synthetic` measured 1,500 cheaper at every size it applies
 * to (10,000 records: 376 against 453–495 µs per query; 1,000: 149–175 against 155–186; 100,000:
 * 1,217–1,220 against 1,268–1,409; docs/indexing.md, "Session 14").
 */
const PRUNE_MIN_POSTINGS = 1_500;

/**
 * For tests and measurements: `enabled` false scores every posting (the reference); `used`
 * counts pruned searches; `minPostings` is where pruning starts (lowered by tests, so that small
 * corpora exercise it).
 */
export const maxScoreSwitch = { enabled: true, used: 0, minPostings: PRUNE_MIN_POSTINGS };
/** Relative margin on both sides of the cut, far above the rounding of a sum of a few dozen terms. */
const MARGIN = 1e-9;

interface Resolved {
  t: number;
  w: number;
  bound: number;
  postings: number;
}

/** The best `limit` slots with their scores, as the full search would rank them; undefined: search in full. */
export function searchMaxScore(v: PostingsView, terms: readonly { term: string; weight: number }[], limit: number): { slot: number; score: number }[] | undefined {
  const { n, k1, b, titleWeight } = v;
  // The bound and the cut need non-negative contributions below w · (k1 + 1).
  if (!maxScoreSwitch.enabled || !(k1 > 0) || !(b >= 0 && b < 1) || !(titleWeight >= 0) || limit <= 0) return undefined;
  const resolved: Resolved[] = [];
  let total = 0;
  for (const { term, weight } of terms) {
    const t = v.termId(term);
    if (t === undefined) continue;
    const docs = v.df[t] as number;
    if (docs === 0) continue;
    const w = weight * idf(n, docs);
    if (!(w >= 0)) return undefined;
    const postings = (t < v.baseTerms ? (v.baseStart[t + 1] as number) - (v.baseStart[t] as number) : 0) + (v.recent.get(t)?.length ?? 0) / 3;
    resolved.push({ t, w, bound: w * (k1 + 1), postings });
    total += postings;
  }
  if (total < maxScoreSwitch.minPostings || resolved.length < 2) return undefined;

  const scores = new ScoreAccumulator(v.slots, v);
  const { touched } = scores;

  // Pass A: highest bounds first, until the rest cannot lift a record the scored terms missed into the top.
  const order = resolved.map((_, i) => i).sort((x, y) => (resolved[y] as Resolved).bound - (resolved[x] as Resolved).bound);
  let rest = 0;
  for (const r of resolved) rest += r.bound;
  let scoredBound = 0;
  let scored = 0;
  let cut = false;
  for (let j = 0; j < order.length - 1; j++) {
    const i = order[j] as number;
    const r = resolved[i] as Resolved;
    eachPosting(v, r.t, (d, titleTf, textTf) => scores.add(d, titleTf, textTf, r.w));
    rest -= r.bound;
    scoredBound += r.bound;
    scored += r.postings;
    // The k-th best partial score is at most the scored terms' bounds summed: worked out only when the rest is below that.
    if (touched.length >= limit && rest < scoredBound && rest * (1 + MARGIN) < kthBest(touched, scores.scores, limit) * (1 - MARGIN)) {
      cut = true;
      break;
    }
    // Most postings scored and no cut yet: scoring them all costs less than going on.
    if (scored * 2 > total) return undefined;
  }
  if (!cut) return undefined;

  // Pass B: the candidates scored from zero, every term in the question's order.
  scores.restart();
  for (let i = 0; i < resolved.length; i++) {
    const { t, w } = resolved[i] as Resolved;
    // A term scored in pass A has all its slots met: only the other terms skip postings.
    eachPosting(v, t, (d, titleTf, textTf) => scores.addIfMet(d, titleTf, textTf, w));
  }
  maxScoreSwitch.used++;
  return scores.best(limit);
}

/** Calls `visit` for each live posting of term `t`: its compacted range, then its recent list. */
export function eachPosting(v: PostingsView, t: number, visit: (d: number, titleTf: number, textTf: number) => void): void {
  const { live } = v;
  if (t < v.baseTerms) {
    const { baseSlot, baseTitleTf, baseTextTf } = v;
    for (let i = v.baseStart[t] as number, end = v.baseStart[t + 1] as number; i < end; i++) {
      const d = baseSlot[i] as number;
      if (live[d]) visit(d, baseTitleTf[i] as number, baseTextTf[i] as number);
    }
  }
  const list = v.recent.get(t);
  if (list) {
    for (let i = 0; i < list.length; i += 3) {
      const d = list[i] as number;
      if (live[d]) visit(d, list[i + 1] as number, list[i + 2] as number);
    }
  }
}

/** The `k`-th largest of the slots' scores (k ≤ slots.length), by a bounded min-heap. */
function kthBest(slots: readonly number[], acc: Float64Array, k: number): number {
  const heap = new Float64Array(k);
  let size = 0;
  for (const d of slots) {
    const x = acc[d] as number;
    if (size < k) {
      let i = size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if ((heap[p] as number) <= x) break;
        heap[i] = heap[p] as number;
        i = p;
      }
      heap[i] = x;
    } else if (x > (heap[0] as number)) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= k) break;
        const r = l + 1;
        const m = r < k && (heap[r] as number) < (heap[l] as number) ? r : l;
        if ((heap[m] as number) >= x) break;
        heap[i] = heap[m] as number;
        i = m;
      }
      heap[i] = x;
    }
  }
  return heap[0] as number;
}
