/**
 * Prefix and suffix look-ups over sorted word lists, shared by the in-memory index and the
 * vocabulary of an outside index: a binary search to the first candidate, then a scan while the
 * words still match.
 */

/** Where `value` is or would go in the sorted `list` (the order of `Array.prototype.sort`). */
export function lowerBound(list: readonly string[], value: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as string) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Adds `value` to the sorted `list` where it belongs. */
export function insertSorted(list: string[], value: string): void {
  list.splice(lowerBound(list, value), 0, value);
}

/** Removes `value` from the sorted `list`, if there. */
export function removeSorted(list: string[], value: string): void {
  const at = lowerBound(list, value);
  if (list[at] === value) list.splice(at, 1);
}

/** `word` spelled backwards by code points (a surrogate pair stays a pair). */
export function reverseWord(s: string): string {
  // Without surrogates the code units are the code points: no array of them is made.
  let out = '';
  for (let i = s.length - 1; i >= 0; i--) {
    const code = s.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) return [...s].reverse().join('');
    out += s[i];
  }
  return out;
}

/**
 * Calls `unit` with the UTF-16 code units of `reverseWord(word)` in order, without making it
 * (code points from the end, each one's units in their order); stops when `unit` returns false.
 */
function eachReversedUnit(word: string, unit: (code: number) => boolean): void {
  for (let end = word.length; end > 0; ) {
    let start = end - 1;
    const low = word.charCodeAt(start);
    // A surrogate pair is one code point (as the spread in `reverseWord` takes it); a lone one is its own.
    if (low >= 0xdc00 && low <= 0xdfff && start > 0) {
      const high = word.charCodeAt(start - 1);
      if (high >= 0xd800 && high <= 0xdbff) start--;
    }
    for (let i = start; i < end; i++) if (!unit(word.charCodeAt(i))) return;
    end = start;
  }
}

const isSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdfff;

/**
 * `compareReversed` for a word without surrogates, read from its end unit by unit (no callback per
 * unit: the suffix look-ups of a knowledge base's first questions compare every probe so); NaN
 * when `word` has a surrogate within the units compared, for the general path to answer.
 */
function compareReversedUnits(word: string, r: string): number {
  const n = word.length;
  const common = Math.min(n, r.length);
  for (let k = 0; k < common; k++) {
    const code = word.charCodeAt(n - 1 - k);
    if (isSurrogate(code)) return Number.NaN;
    const d = code - r.charCodeAt(k);
    if (d !== 0) return d;
  }
  return n - r.length;
}

/** `reverseWord(word)` compared with `r` as `<` compares strings (negative, 0, positive), allocating nothing. */
export function compareReversed(word: string, r: string): number {
  const fast = compareReversedUnits(word, r);
  if (!Number.isNaN(fast)) return fast;
  let k = 0;
  let result = 0;
  eachReversedUnit(word, (code) => {
    if (k >= r.length) {
      result = 1;
      return false;
    }
    result = code - r.charCodeAt(k++);
    return result === 0;
  });
  if (result !== 0) return result;
  return k < r.length ? -1 : 0;
}

/** Whether `reverseWord(word)` starts with `r`, allocating nothing. */
export function reversedStartsWith(word: string, r: string): boolean {
  if (word.length >= r.length) {
    const n = word.length;
    let plain = true;
    for (let k = 0; k < r.length; k++) {
      const code = word.charCodeAt(n - 1 - k);
      if (isSurrogate(code)) {
        plain = false;
        break;
      }
      if (code !== r.charCodeAt(k)) return false;
    }
    if (plain) return true;
  }
  let k = 0;
  let same = true;
  eachReversedUnit(word, (code) => {
    if (k >= r.length) return false;
    same = code === r.charCodeAt(k++);
    return same;
  });
  return same && k >= r.length;
}

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

/**
 * Words that end with `suffix`, from a list ordered by reversed spelling that is read through
 * `wordAt` (an id list over packed words), that `keep` accepts (by position); at most `limit`.
 * Allocates no reversed copy of a listed word.
 */
export function wordsEndingWith(length: number, wordAt: (i: number) => string, suffix: string, limit: number, keep: (i: number) => boolean = () => true): string[] {
  const r = reverseWord(suffix);
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareReversed(wordAt(mid), r) < 0) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < length && out.length < limit; i++) {
    const word = wordAt(i);
    if (!reversedStartsWith(word, r)) break;
    if (keep(i)) out.push(word);
  }
  return out;
}
