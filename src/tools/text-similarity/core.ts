/**
 * Lexical similarity of two texts: how much vocabulary they share, after lower-casing, dropping
 * stop words and stemming. TF-IDF cosine weighs rarer shared words more; Jaccard is the plain
 * overlap of the two word sets. Neither knows meaning: "car" and "automobile" share nothing.
 */
import { round, spellings, terms } from '../shared/ai-text.js';

export interface TextSimilarityInput {
  textA: string;
  textB: string;
  sharedLimit?: number;
}

export interface TextSimilarityOutput {
  /** TF-IDF cosine similarity, 0 (no shared words) to 1 (same word distribution). */
  cosine: number;
  /** Shared distinct terms ÷ all distinct terms, 0 to 1. */
  jaccard: number;
  /** Shared terms as first written in text A (matched by stem), most weighty first. */
  sharedTerms: string[];
  termsA: number;
  termsB: number;
  note: string;
}

function frequencies(list: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const term of list) out.set(term, (out.get(term) ?? 0) + 1);
  return out;
}

/**
 * Smoothed IDF over the two texts (as scikit-learn does): a term in both gets weight 1, a term in
 * one gets 1 + ln(1.5), so shared words still count but distinctive ones count more.
 */
function idf(term: string, a: Map<string, number>, b: Map<string, number>): number {
  const documentFrequency = (a.has(term) ? 1 : 0) + (b.has(term) ? 1 : 0);
  return Math.log(3 / (1 + documentFrequency)) + 1;
}

export const lexicalNote = 'Lexical similarity, not semantic: it compares the words used (stemmed, without stop words), not their meaning, so paraphrases with different words score low.';

export function run(input: TextSimilarityInput): TextSimilarityOutput {
  const a = frequencies(terms(input.textA));
  const b = frequencies(terms(input.textB));
  const vocabulary = new Set([...a.keys(), ...b.keys()]);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  const shared: [string, number][] = [];
  for (const term of vocabulary) {
    const weight = idf(term, a, b);
    const wa = (a.get(term) ?? 0) * weight;
    const wb = (b.get(term) ?? 0) * weight;
    dot += wa * wb;
    normA += wa * wa;
    normB += wb * wb;
    if (wa > 0 && wb > 0) shared.push([term, wa * wb]);
  }
  const written = spellings(input.textA);
  const cosine = normA && normB ? dot / Math.sqrt(normA * normB) : 0;
  return {
    cosine: round(cosine),
    jaccard: round(vocabulary.size ? shared.length / vocabulary.size : 0),
    sharedTerms: shared
      .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
      .slice(0, input.sharedLimit ?? 20)
      .map(([term]) => written.get(term) ?? term),
    termsA: a.size,
    termsB: b.size,
    note: lexicalNote,
  };
}
