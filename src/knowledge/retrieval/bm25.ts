/**
 * BM25 building blocks, kept apart from the index so the answerer scores sentences with the
 * same formulas.
 */

export interface Bm25Params {
  /** Term-frequency saturation. */
  k1: number;
  /** Length normalisation strength, 0 (none) … 1 (full). */
  b: number;
}

export const DEFAULT_BM25: Readonly<Bm25Params> = { k1: 1.2, b: 0.75 };

/**
 * Lucene's IDF, `ln(1 + (N − n + 0.5) / (n + 0.5))`: always > 0, also for N = 0, 1, 2 and for a
 * term in every document, where the classic Robertson form goes negative.
 */
export function idf(docCount: number, docFreq: number): number {
  return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
}

/** `1 − b + b · len / avg`, or 1 when there is nothing to compare with. */
export function lengthNorm(len: number, avgLen: number, b: number): number {
  return avgLen > 0 ? 1 - b + (b * len) / avgLen : 1;
}

/** Saturated term weight `tf · (k1 + 1) / (tf + k1)`, for an already length-normalised tf. */
export function saturate(tf: number, k1: number): number {
  return tf > 0 ? (tf * (k1 + 1)) / (tf + k1) : 0;
}
