/**
 * The exact top k of a BM25F search without scoring most postings of its commonest terms
 * (MaxScore, Turtle & Flood 1995), for KnowledgeIndex.searchWeighted. Issue 14: a question to a
 * 100,000-record knowledge base scored ~80,000 postings (~3 ms); ~4% of them could change its top 6,
 * the rest belonging to words most records have ("question", "spare parts", chat-speak readings).
 *
 * A term's contribution to a record is `w · saturate(tf)`, below `w · (k1 + 1)` (its bound), and
 * never negative. Pass A scores the terms of highest bound first until the bounds of the terms
 * left sum to less than the k-th best partial score: a record none of the scored terms has cannot
 * reach the top k then, so the candidates are the records pass A met. Pass B adds the terms left,
 * in the same order, to the candidates only: the terms' postings are read for them by a mark test
 * per posting, or, where a term has many more postings than there are candidates, by looking each
 * candidate up in them (galloping over the slots, which ascend). The full search
 * (`searchAllPostings`) adds every term in that same order, heaviest first, and one
 * `ScoreAccumulator` adds every posting for both: a candidate's score is the same sum in the same
 * order, bit for bit, and so are the ties. (Until session 25 both added the terms in the
 * question's order, and pass B scored the candidates again from zero, reading pass A's postings twice.)
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
 * counts pruned searches, `galloped` the terms whose postings they looked the candidates up in;
 * `minPostings` is where pruning starts (lowered by tests, so that small corpora exercise it).
 */
export const maxScoreSwitch = { enabled: true, used: 0, galloped: 0, minPostings: PRUNE_MIN_POSTINGS };
/** Relative margin on both sides of the cut, far above the rounding of a sum of a few dozen terms. */
const MARGIN = 1e-9;

/** A question's term as a search adds it: its id, weight (with its idf), bound and postings. */
interface Resolved {
  t: number;
  w: number;
  bound: number;
  postings: number;
}

/**
 * The question's terms that the index holds, heaviest (highest bound, i.e. weight) first, ties in
 * the question's order: the order in which both searches add a record's contributions, so that
 * pass A's partial sums are the full search's and pass B only adds the terms pass A left.
 */
function resolveTerms(v: PostingsView, terms: readonly { term: string; weight: number }[]): { resolved: Resolved[]; total: number } {
  const resolved: Resolved[] = [];
  let total = 0;
  for (const { term, weight } of terms) {
    const t = v.termId(term);
    if (t === undefined) continue;
    const docs = v.df[t] as number;
    if (docs === 0) continue;
    const w = weight * idf(v.n, docs);
    const postings = (t < v.baseTerms ? (v.baseStart[t + 1] as number) - (v.baseStart[t] as number) : 0) + (v.recent.get(t)?.length ?? 0) / 3;
    resolved.push({ t, w, bound: w * (v.k1 + 1), postings });
    total += postings;
  }
  // A stable sort: equal weights keep the question's order.
  resolved.sort((x, y) => y.w - x.w);
  return { resolved, total };
}

/** Every posting of every term scored, heaviest term first (the reference the pruned search equals). */
export function searchAllPostings(v: PostingsView, terms: readonly { term: string; weight: number }[], limit: number): { slot: number; score: number }[] {
  const scores = new ScoreAccumulator(v.slots, v);
  for (const { t, w } of resolveTerms(v, terms).resolved) eachPosting(v, t, (d, titleTf, textTf) => scores.add(d, titleTf, textTf, w));
  // Only records with a positive score are ranked.
  return scores.best(limit);
}

/** The best `limit` slots with their scores, as the full search would rank them; undefined: search in full. */
export function searchMaxScore(v: PostingsView, terms: readonly { term: string; weight: number }[], limit: number): { slot: number; score: number }[] | undefined {
  const { k1, b, titleWeight } = v;
  // The bound and the cut need non-negative contributions below w · (k1 + 1).
  if (!maxScoreSwitch.enabled || !(k1 > 0) || !(b >= 0 && b < 1) || !(titleWeight >= 0) || limit <= 0) return undefined;
  const { resolved, total } = resolveTerms(v, terms);
  if (total < maxScoreSwitch.minPostings || resolved.length < 2) return undefined;
  for (const r of resolved) if (!(r.w >= 0)) return undefined;

  const scores = new ScoreAccumulator(v.slots, v);
  const { touched } = scores;

  // Pass A: heaviest terms first, until the rest cannot lift a record the scored terms missed into the top.
  let rest = 0;
  for (const r of resolved) rest += r.bound;
  let scoredBound = 0;
  let scored = 0;
  let next = -1;
  for (let j = 0; j < resolved.length - 1; j++) {
    const r = resolved[j] as Resolved;
    eachPosting(v, r.t, (d, titleTf, textTf) => scores.add(d, titleTf, textTf, r.w));
    rest -= r.bound;
    scoredBound += r.bound;
    scored += r.postings;
    // The k-th best partial score is at most the scored terms' bounds summed: worked out only when the rest is below that.
    if (touched.length >= limit && rest < scoredBound && rest * (1 + MARGIN) < kthBest(touched, scores.scores, limit) * (1 - MARGIN)) {
      next = j + 1;
      break;
    }
    // Most postings scored and no cut yet: scoring them all costs less than going on.
    if (scored * 2 > total) return undefined;
  }
  if (next < 0) return undefined;

  // Pass B: the terms left, in the same order, for the candidates only (the records pass A met,
  // whose partial sums are the full search's so far). Looked up in a term's postings when those
  // are many more than the candidates (a common word's ~50,000 against a few thousand), else a
  // mark test per posting.
  let candidates: Int32Array | undefined;
  for (let j = next; j < resolved.length; j++) {
    const { t, w, postings } = resolved[j] as Resolved;
    const add = (d: number, titleTf: number, textTf: number) => scores.addIfMet(d, titleTf, textTf, w);
    if (t < v.baseTerms && postings > touched.length * GALLOP_RATIO) {
      candidates ??= Int32Array.from(touched).sort();
      eachCandidatePosting(v, t, candidates, add);
      maxScoreSwitch.galloped++;
    } else eachPosting(v, t, add);
  }
  maxScoreSwitch.used++;
  return scores.best(limit);
}

/**
 * How many more postings than candidates a term must have for the candidates to be looked up in
 * it (each look-up a short gallop forward, ~log2 of the gap) rather than every posting tested.
 */
const GALLOP_RATIO = 4;

/**
 * Calls `visit` for each live posting of term `t` whose slot is one of `candidates` (ascending):
 * the compacted range by galloping from each candidate's place to the next, then the recent list
 * (short, unsorted) in full. For one record, the same posting as `eachPosting` gives, so scores
 * are added in the same order.
 */
function eachCandidatePosting(v: PostingsView, t: number, candidates: Int32Array, visit: (d: number, titleTf: number, textTf: number) => void): void {
  const { live, baseSlot, baseTitleTf, baseTextTf } = v;
  let i = v.baseStart[t] as number;
  const end = v.baseStart[t + 1] as number;
  for (let c = 0; c < candidates.length && i < end; c++) {
    const d = candidates[c] as number;
    if ((baseSlot[i] as number) < d) {
      // Gallop: the first place at or past `d`, in [i, end).
      let step = 1;
      let lo = i;
      let hi = i + 1;
      while (hi < end && (baseSlot[hi] as number) < d) {
        lo = hi;
        step *= 2;
        hi = i + step;
      }
      if (hi > end) hi = end;
      // baseSlot[lo] < d, and baseSlot[hi] >= d or hi = end.
      while (hi - lo > 1) {
        const mid = (lo + hi) >>> 1;
        if ((baseSlot[mid] as number) < d) lo = mid;
        else hi = mid;
      }
      i = hi;
      if (i >= end) break;
    }
    if ((baseSlot[i] as number) === d) {
      if (live[d]) visit(d, baseTitleTf[i] as number, baseTextTf[i] as number);
      i++;
    }
  }
  const list = v.recent.get(t);
  if (list) {
    for (let k = 0; k < list.length; k += 3) {
      const d = list[k] as number;
      if (live[d]) visit(d, list[k + 1] as number, list[k + 2] as number);
    }
  }
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
