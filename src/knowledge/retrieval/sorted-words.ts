/**
 * Prefix and suffix look-ups over sorted word lists, shared by the in-memory index and the
 * vocabulary of an outside index: a binary search to the first candidate, then a scan while the
 * words still match.
 */

function lowerBound(list: readonly string[], value: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as string) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export const reverseWord = (s: string): string => [...s].reverse().join('');

/** Words of `sorted` that start with `prefix`, in order, at most `limit`. */
export function wordsWithPrefix(sorted: readonly string[], prefix: string, limit: number): string[] {
  const out: string[] = [];
  for (let i = lowerBound(sorted, prefix); i < sorted.length && out.length < limit; i++) {
    const s = sorted[i] as string;
    if (!s.startsWith(prefix)) break;
    out.push(s);
  }
  return out;
}

/**
 * Words that end with `suffix`, from `reversedSorted` (every word reversed, then sorted), that
 * `keep` accepts; at most `limit`.
 */
export function wordsWithSuffix(reversedSorted: readonly string[], suffix: string, limit: number, keep: (word: string) => boolean = () => true): string[] {
  const r = reverseWord(suffix);
  const out: string[] = [];
  for (let i = lowerBound(reversedSorted, r); i < reversedSorted.length && out.length < limit; i++) {
    const s = reversedSorted[i] as string;
    if (!s.startsWith(r)) break;
    const word = reverseWord(s);
    if (keep(word)) out.push(word);
  }
  return out;
}
