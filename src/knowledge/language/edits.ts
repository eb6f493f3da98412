/**
 * One-edit spelling neighbourhoods (symmetric deletions, as in SymSpell): two words are within
 * one edit (insertion, deletion, substitution or transposition) only if they share a key among
 * themselves and their one-letter deletions, so a dictionary indexed by those keys is searched
 * with a handful of look-ups instead of a scan.
 */

/** Strings one deletion away from `word`. */
export function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** Optimal string alignment distance, cut off above 1. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
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
  private readonly keys: Map<string, string[]> | undefined;
  private readonly scanned: string[] | undefined;

  /**
   * `minLength`: shorter words are not indexed (too many neighbours to mean anything).
   * `scanAtMost`: a dictionary of at most this many words is scanned instead (same answers).
   */
  constructor(words: Iterable<string>, minLength: number, scanAtMost = SCAN_AT_MOST) {
    const kept: string[] = [];
    for (const word of words) if (word.length >= minLength) kept.push(word);
    if (kept.length <= scanAtMost) {
      this.scanned = kept;
      return;
    }
    const keys = new Map<string, string[]>();
    const put = (key: string, word: string): void => {
      const list = keys.get(key);
      if (list === undefined) keys.set(key, [word]);
      else if (list[list.length - 1] !== word) list.push(word);
    };
    for (const word of kept) {
      put(word, word);
      for (const d of deletions(word)) put(d, word);
    }
    this.keys = keys;
  }

  /** Indexed words within one edit of `word`, other than `word` itself. */
  neighbours(word: string): string[] {
    const found = new Set<string>();
    if (this.scanned) {
      for (const candidate of this.scanned) if (candidate !== word && withinOneEdit(word, candidate)) found.add(candidate);
    } else {
      for (const key of [word, ...deletions(word)]) {
        for (const candidate of this.keys?.get(key) ?? []) if (candidate !== word && withinOneEdit(word, candidate)) found.add(candidate);
      }
    }
    // Sorted: the same answer however the index was made (a fresh build, changes applied, a snapshot).
    return [...found].sort();
  }
}
