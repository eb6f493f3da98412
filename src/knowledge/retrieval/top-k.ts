/**
 * The `k` best items of a list without sorting all of it: a bounded min-heap keeps the current
 * top k, so a query matching thousands of records costs O(n log k) instead of O(n log n).
 */

/** `before(a, b)` is true when `a` ranks above `b`. Returns the best `k` items, best first. */
export function topK<T>(items: readonly T[], k: number, before: (a: T, b: T) => boolean): T[] {
  if (k <= 0) return [];
  if (items.length <= k * 4) return [...items].sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0)).slice(0, k);
  // heap[0] is the worst of the kept items.
  const heap: T[] = [];
  const worse = (i: number, j: number) => before(heap[j] as T, heap[i] as T);
  const swap = (i: number, j: number) => {
    const t = heap[i] as T;
    heap[i] = heap[j] as T;
    heap[j] = t;
  };
  const siftDown = (start: number) => {
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(l, m)) m = l;
      if (r < heap.length && worse(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      let i = heap.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!worse(i, p)) break;
        swap(i, p);
        i = p;
      }
    } else if (before(item, heap[0] as T)) {
      heap[0] = item;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
}
