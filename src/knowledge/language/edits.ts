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

/** Words of a dictionary, searchable by one-edit neighbourhood. */
export class DeletionIndex {
  private readonly keys = new Map<string, string[]>();

  /** `minLength`: shorter words are not indexed (too many neighbours to mean anything). */
  constructor(words: Iterable<string>, minLength: number) {
    for (const word of words) {
      if (word.length < minLength) continue;
      this.put(word, word);
      for (const d of deletions(word)) this.put(d, word);
    }
  }

  private put(key: string, word: string): void {
    const list = this.keys.get(key);
    if (list === undefined) this.keys.set(key, [word]);
    else if (list[list.length - 1] !== word) list.push(word);
  }

  /** Indexed words within one edit of `word`, other than `word` itself. */
  neighbours(word: string): string[] {
    const found = new Set<string>();
    for (const key of [word, ...deletions(word)]) {
      for (const candidate of this.keys.get(key) ?? []) if (candidate !== word && withinOneEdit(word, candidate)) found.add(candidate);
    }
    // Sorted: the same answer however the index was made (a fresh build, changes applied, a snapshot).
    return [...found].sort();
  }
}
