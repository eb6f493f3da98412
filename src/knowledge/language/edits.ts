/**
 * One-edit spelling neighbourhoods (symmetric deletions, as in SymSpell): two words are within
 * one edit (insertion, deletion, substitution or transposition) only if they share a key among
 * themselves and their one-letter deletions, so a dictionary indexed by those keys is searched
 * with a handful of look-ups instead of a scan.
 */
import { ShardedMap } from '../retrieval/sharded-map.js';

/** Strings one deletion away from `word`. */
export function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/**
 * Optimal string alignment distance, cut off above 1. Compares code units in place: a question's
 * unknown word is checked against every word of a small dictionary (`DeletionIndex`), so no
 * substring is made per candidate (the slicing version was a tenth of an uncached query's CPU).
 */
export function withinOneEdit(a: string, b: string): boolean {
  return a === b || withinOneEditAt(a, 0, a.length, b);
}

/**
 * `withinOneEdit(a.slice(start, start + length), b)` without the slice: a word of a packed list
 * (packed-words.ts) is compared where it lies, so a scan of a small vocabulary makes a string only
 * of the words it finds (making one per candidate was half of a knowledge base's first spelling
 * look-ups; docs/indexing.md, "Session 15").
 */
export function withinOneEditAt(a: string, start: number, length: number, b: string): boolean {
  const la = length;
  const lb = b.length;
  if (la - lb > 1 || lb - la > 1) return false;
  let i = 0;
  while (i < la && i < lb && a.charCodeAt(start + i) === b.charCodeAt(i)) i++;
  if (la === lb) {
    if (i === la) return true;
    // One substitution at i, or the letters at i and i + 1 swapped (i + 1 < la: a last-letter
    // substitution matched above, so nothing past the word is read).
    if (tailsEqual(a, start + i + 1, start + la, b, i + 1)) return true;
    return a.charCodeAt(start + i) === b.charCodeAt(i + 1) && a.charCodeAt(start + i + 1) === b.charCodeAt(i) && tailsEqual(a, start + i + 2, start + la, b, i + 2);
  }
  // One letter inserted at i into the shorter word.
  return la > lb ? tailsEqual(a, start + i + 1, start + la, b, i) : tailsEqual(a, start + i, start + la, b, i + 1);
}

/** `a.slice(ai, aEnd) === b.slice(bi)`, without making the slices. */
function tailsEqual(a: string, ai: number, aEnd: number, b: string, bi: number): boolean {
  const n = Math.max(0, aEnd - ai);
  if (n !== Math.max(0, b.length - bi)) return false;
  for (let k = 0; k < n; k++) if (a.charCodeAt(ai + k) !== b.charCodeAt(bi + k)) return false;
  return true;
}

/**
 * Dictionaries up to this many words are scanned rather than indexed: the deletion keys of a small
 * knowledge base's words took about 290 KB of heap (issue 14), while scanning a thousand words for
 * one misspelling costs some tens of microseconds.
 */
export const SCAN_AT_MOST = 1000;

/** Words of a dictionary, searchable by one-edit neighbourhood. */
export class DeletionIndex {
  /** Deletion keys to the words they come from; undefined for a small dictionary (`scanned`). */
  private keys: ShardedMap<string[]> | undefined;
  /** A small dictionary's words, shortest first; undefined for an indexed one. */
  private scanned: string[] | undefined;
  /**
   * `scanned` words of length n are at [byLength[n], byLength[n + 1]): a word is within one edit
   * only of words one letter shorter, as long, or one longer, so the scan reads only those.
   */
  private byLength: Int32Array | undefined;

  /**
   * `minLength`: shorter words are not indexed (too many neighbours to mean anything).
   * `scanAtMost`: a dictionary of at most this many words is scanned instead (same answers).
   */
  constructor(words: Iterable<string>, minLength: number, scanAtMost = SCAN_AT_MOST) {
    const steps = this.fill(words, minLength, scanAtMost, Number.POSITIVE_INFINITY);
    while (!steps.next().done);
  }

  /**
   * The same index made in steps of about `perStep` words (~8 keys each), so that the caller can
   * let other work run between them: a vocabulary of ~150,000 words takes 0.5–1 s (issue 14, head
   * of line; knowledge-index.ts builds its spelling table so, answering by `neighboursByScan`
   * meanwhile).
   */
  static *inSteps(words: Iterable<string>, minLength: number, perStep: number, scanAtMost = SCAN_AT_MOST): Generator<void, DeletionIndex> {
    const index = new DeletionIndex([], minLength, scanAtMost);
    yield* index.fill(words, minLength, scanAtMost, perStep);
    return index;
  }

  private *fill(words: Iterable<string>, minLength: number, scanAtMost: number, perStep: number): Generator<void, void> {
    const kept: string[] = [];
    for (const word of words) if (word.length >= minLength) kept.push(word);
    if (kept.length <= scanAtMost) {
      // A stable sort: words of one length stay in the given order (the answer is sorted anyway).
      kept.sort((x, y) => x.length - y.length);
      const longest = kept.length > 0 ? (kept[kept.length - 1] as string).length : 0;
      const byLength = new Int32Array(longest + 2);
      for (let n = 0, at = 0; n <= longest + 1; n++) {
        while (at < kept.length && (kept[at] as string).length < n) at++;
        byLength[n] = at;
      }
      this.keys = undefined;
      this.scanned = kept;
      this.byLength = byLength;
      return;
    }
    // Split in 64 maps: one `Map` of a vocabulary's ~100,000 keys moved them all at once as it grew (sharded-map.ts).
    const keys = new ShardedMap<string[]>();
    const put = (key: string, word: string): void => {
      const list = keys.get(key);
      if (list === undefined) keys.set(key, [word]);
      else if (list[list.length - 1] !== word) list.push(word);
    };
    for (let i = 0; i < kept.length; i++) {
      const word = kept[i] as string;
      put(word, word);
      for (const d of deletions(word)) put(d, word);
      if (i % perStep === perStep - 1) yield;
    }
    this.keys = keys;
    this.scanned = undefined;
    this.byLength = undefined;
  }

  /** Indexed words within one edit of `word`, other than `word` itself. */
  neighbours(word: string): string[] {
    const found = new Set<string>();
    if (this.scanned && this.byLength) {
      const { scanned, byLength } = this;
      const last = byLength.length - 1;
      const from = byLength[Math.min(Math.max(word.length - 1, 0), last)] as number;
      const to = byLength[Math.min(word.length + 2, last)] as number;
      for (let k = from; k < to; k++) {
        const candidate = scanned[k] as string;
        if (candidate !== word && withinOneEdit(word, candidate)) found.add(candidate);
      }
    } else {
      for (const key of [word, ...deletions(word)]) {
        for (const candidate of this.keys?.get(key) ?? []) if (candidate !== word && withinOneEdit(word, candidate)) found.add(candidate);
      }
    }
    // Sorted: the same answer however the index was made (a fresh build, changes applied, a snapshot).
    return [...found].sort();
  }
}

/**
 * What `new DeletionIndex(words, minLength).neighbours(word)` answers, by a scan of `words`: the
 * words of at least `minLength` letters within one edit of `word`, other than it, once each, sorted.
 */
export function neighboursByScan(words: readonly string[], word: string, minLength: number): string[] {
  const found = new Set<string>();
  for (const candidate of words) {
    if (candidate.length >= minLength && candidate !== word && Math.abs(candidate.length - word.length) <= 1 && withinOneEdit(word, candidate)) found.add(candidate);
  }
  return [...found].sort();
}
