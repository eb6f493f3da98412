/**
 * TextRank (Mihalcea & Tarau, 2004) over sentences: sentences are nodes, edges are weighted by
 * word overlap normalised by sentence length, and PageRank's power iteration scores each sentence
 * by how much the rest of the text "agrees" with it. The graph is dense (n² weights), so callers
 * cap n (see maxSentences in core.ts).
 */

const damping = 0.85;
/** A fixed cap keeps the run time bounded even when scores oscillate; it converges far sooner. */
const maxIterations = 100;
const tolerance = 1e-6;

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared;
}

/** Overlap of two sentences' terms, divided by the logs of their lengths (the paper's measure). */
export function similarity(a: readonly string[], b: readonly string[]): number {
  return weight(new Set(a), a.length, new Set(b), b.length);
}

function weight(a: ReadonlySet<string>, aLength: number, b: ReadonlySet<string>, bLength: number): number {
  const shared = overlap(a, b);
  if (shared === 0) return 0;
  // log(1) is 0: two one-word sentences that share their word are simply similar.
  const norm = Math.log(aLength) + Math.log(bLength);
  return norm > 0 ? shared / norm : 1;
}

/** Each sentence's score; sentences are given as their terms. */
export function textRank(sentenceTerms: readonly (readonly string[])[]): number[] {
  const n = sentenceTerms.length;
  const sets = sentenceTerms.map((terms) => new Set(terms));
  // weights[j * n + i]: the edge from j to i, already divided by j's total outgoing weight.
  const weights = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const w = weight(sets[i] as Set<string>, sentenceTerms[i]?.length ?? 0, sets[j] as Set<string>, sentenceTerms[j]?.length ?? 0);
      weights[i * n + j] = w;
      weights[j * n + i] = w;
    }
  }
  for (let j = 0; j < n; j++) {
    let total = 0;
    for (let i = 0; i < n; i++) total += weights[j * n + i] as number;
    if (total > 0) for (let i = 0; i < n; i++) weights[j * n + i] = (weights[j * n + i] as number) / total;
  }
  let scores = new Float64Array(n).fill(1 / n);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    const next = new Float64Array(n).fill((1 - damping) / n);
    for (let j = 0; j < n; j++) {
      const from = damping * (scores[j] as number);
      for (let i = 0; i < n; i++) next[i] = (next[i] as number) + from * (weights[j * n + i] as number);
    }
    let change = 0;
    for (let i = 0; i < n; i++) change += Math.abs((next[i] as number) - (scores[i] as number));
    scores = next;
    if (change < tolerance) break;
  }
  return [...scores];
}
