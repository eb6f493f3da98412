/**
 * The answer-or-refuse model: how likely the retrieved records answer a question, from how much of
 * it the best unit covers and how strongly the best record matched.
 */
import { idf as bm25Idf } from '../retrieval/bm25.js';

/**
 * Weights of the answer-or-refuse model: a logistic regression fitted on the tuning half of the
 * visitor-question sets by `npx tsx eval/calibrate.ts` (docs/quality.md), which prints them.
 */
export const CONFIDENCE_MODEL: Readonly<ConfidenceModel> = { bias: -3.23, coverage: 2.22, score: 1.02 };

/**
 * How likely the retrieved records answer the question, 0…1, from two signals: `coverage`, the
 * weighted share of the question's words the best unit covers, and the best record's retrieval
 * score in units of the largest IDF a term can have in this knowledge base (so the scale does not
 * depend on its size): about how many rare words of the question the record matched.
 */
export function confidenceOf(coverage: number, topScore: number, size: number, model: ConfidenceModel = CONFIDENCE_MODEL): number {
  const z = model.bias + model.coverage * coverage + model.score * matchedRareWords(topScore, size);
  return 1 / (1 + Math.exp(-z));
}

export interface ConfidenceModel {
  bias: number;
  coverage: number;
  score: number;
}

/** A retrieval score in units of the largest IDF a term has in a knowledge base of `size` records. */
export function matchedRareWords(topScore: number, size: number): number {
  return topScore / Math.max(1e-9, bm25Idf(Math.max(1, size), 1));
}
