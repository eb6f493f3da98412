/** Uniform random choices from crypto.getRandomValues, without modulo bias. */

/** A uniform integer in [0, n) for each of `count` draws: values past the last whole multiple of n are drawn again. */
export function randomIndexes(n: number, count: number): number[] {
  const limit = Math.floor(0x1_0000_0000 / n) * n;
  const out: number[] = [];
  // getRandomValues fills at most 65 536 bytes per call.
  const buffer = new Uint32Array(Math.min(16_384, Math.max(16, count)));
  while (out.length < count) {
    globalThis.crypto.getRandomValues(buffer);
    for (const value of buffer) {
      if (value < limit) out.push(value % n);
      if (out.length === count) break;
    }
  }
  return out;
}
