/**
 * One-edit spelling neighbourhoods (symmetric deletions, as in SymSpell): two words are within
 * one edit (insertion, deletion, substitution or transposition) only if they share a key among
 * themselves and their one-letter deletions, so a dictionary indexed by those keys is searched
 * with a handful of look-ups instead of a scan.
 */
import { inSlices } from '../../time-slices.js';
import { hashOf } from '../retrieval/word-ids.js';

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

/** Growable lists of (key hash, word id) pairs, as a large index's build collects them. */
class PairList {
  hashes = new Uint32Array(1024);
  ids = new Uint32Array(1024);
  length = 0;

  push(hash: number, id: number): void {
    if (this.length === this.hashes.length) {
      const hashes = new Uint32Array(this.length * 2);
      hashes.set(this.hashes);
      this.hashes = hashes;
      const ids = new Uint32Array(this.length * 2);
      ids.set(this.ids);
      this.ids = ids;
    }
    this.hashes[this.length] = hash;
    this.ids[this.length] = id;
    this.length++;
  }
}

/**
 * Words of a dictionary, searchable by one-edit neighbourhood. A large dictionary is a hash table
 * of its words' deletion keys in typed arrays: each key is kept as its 32-bit hash next to the id
 * of its word (~8 pairs a word, 8 bytes each), bucketed by the hash's low bits (`starts`), so it
 * holds no string and no object per key. A `Map` of key strings to word lists took ~100 bytes a
 * key (~8 MB for a language's 10,000 common words) and, being ~800,000 objects for a 100,000-word
 * vocabulary, long young-generation collections while it was made (issue 14, head of line). Two
 * words within one edit share a key, so every neighbour is among the words of the query's keys'
 * hashes; a word that only shares a hash is dropped by `withinOneEdit`, as a word that shares a key
 * without being within one edit always was.
 */
export class DeletionIndex {
  /** The indexed words (of `minLength` letters or more), in the given order; ids are their positions. */
  private words: string[] = [];
  /** Bucket b's pairs are at [starts[b], starts[b + 1]) of `keyHashes` / `wordIds`; undefined for a small dictionary (`scanned`). */
  private starts: Uint32Array | undefined;
  private keyHashes: Uint32Array | undefined;
  private wordIds: Uint32Array | undefined;
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
   * The same index made in steps of about `perStep` words (~8 keys each; the bucketing in steps
   * of 8 × `perStep` keys), so that the caller can let other work run between them: a vocabulary of
   * ~100,000 words takes ~0.3 s (issue 14, head of line; knowledge-index.ts builds its spelling
   * table so, answering by `neighboursByScan` meanwhile).
   */
  static *inSteps(words: Iterable<string>, minLength: number, perStep: number, scanAtMost = SCAN_AT_MOST): Generator<void, DeletionIndex> {
    const index = new DeletionIndex([], minLength, scanAtMost);
    yield* index.fill(words, minLength, scanAtMost, perStep);
    return index;
  }

  /**
   * `inSteps` run in time slices (src/time-slices.ts), for an index made while requests are served;
   * undefined, and no more work done, once `wanted()` says it is not needed any more (its words
   * changed meanwhile). Its owner scans the words (`neighboursByScan`) until it is there.
   */
  static async inSlices(words: readonly string[], minLength: number, perStep: number, wanted: () => boolean = () => true): Promise<DeletionIndex | undefined> {
    const steps = DeletionIndex.inSteps(words, minLength, perStep);
    return inSlices(
      (function* () {
        for (;;) {
          if (!wanted()) return undefined;
          const step = steps.next();
          if (step.done) return step.value;
          yield;
        }
      })(),
    );
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
      this.words = [];
      this.starts = this.keyHashes = this.wordIds = undefined;
      this.scanned = kept;
      this.byLength = byLength;
      return;
    }
    const pairs = new PairList();
    for (let id = 0; id < kept.length; id++) {
      const word = kept[id] as string;
      pairs.push(hashOf(word) >>> 0, id);
      let previous = word;
      for (const key of deletions(word)) {
        // Deleting either of two equal letters side by side makes the same key: once is enough.
        if (key !== previous) pairs.push(hashOf(key) >>> 0, id);
        previous = key;
      }
      if (id % perStep === perStep - 1) yield;
    }
    // Bucketed by the hash's low bits (a counting sort), about two pairs a bucket.
    let buckets = 1;
    while (buckets * 2 < pairs.length) buckets *= 2;
    const mask = buckets - 1;
    const starts = new Uint32Array(buckets + 1);
    const chunk = perStep === Number.POSITIVE_INFINITY ? pairs.length : Math.max(1, perStep * 8);
    for (let i = 0; i < pairs.length; i++) {
      const b = ((pairs.hashes[i] as number) & mask) + 1;
      starts[b] = (starts[b] as number) + 1;
      if (i % chunk === chunk - 1) yield;
    }
    for (let b = 0; b < buckets; b++) starts[b + 1] = (starts[b + 1] as number) + (starts[b] as number);
    const next = starts.slice(0, buckets);
    const keyHashes = new Uint32Array(pairs.length);
    const wordIds = new Uint32Array(pairs.length);
    for (let i = 0; i < pairs.length; i++) {
      const hash = pairs.hashes[i] as number;
      const at = next[hash & mask] as number;
      next[hash & mask] = at + 1;
      keyHashes[at] = hash;
      wordIds[at] = pairs.ids[i] as number;
      if (i % chunk === chunk - 1) yield;
    }
    this.words = kept;
    this.starts = starts;
    this.keyHashes = keyHashes;
    this.wordIds = wordIds;
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
    } else if (this.starts && this.keyHashes && this.wordIds) {
      const { starts, keyHashes, wordIds, words } = this;
      const mask = starts.length - 2;
      for (const key of [word, ...deletions(word)]) {
        const hash = hashOf(key) >>> 0;
        const end = starts[(hash & mask) + 1] as number;
        for (let e = starts[hash & mask] as number; e < end; e++) {
          if (keyHashes[e] !== hash) continue;
          const candidate = words[wordIds[e] as number] as string;
          if (candidate !== word && withinOneEdit(word, candidate)) found.add(candidate);
        }
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
