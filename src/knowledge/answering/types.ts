/** Shapes shared by the extractive answerer and the LLM answerer (product.md §5). */
import type { RecordKind } from '../extraction/types.js';

/** A record as retrieval hands it to an answerer, best first. */
export interface RetrievedRecord {
  recordId: string;
  sourceName: string;
  title: string | null;
  text: string;
  kind: RecordKind;
  /** Retrieval score (BM25, ≥ 0). */
  score: number;
}

export interface Citation {
  sourceName: string;
  /** The record's title for display (the FAQ question, the product name, the section heading); null when it has none. */
  title: string | null;
  recordId: string;
  /** The sentences of the record the answer used, or the whole record when it is short. */
  passage: string;
  score: number;
}

export interface Answer {
  /** Plain text; `[n]` refers to `sources[n - 1]`. */
  answer: string;
  /** False when the knowledge base does not cover the question; then `sources` is empty. */
  grounded: boolean;
  sources: Citation[];
}

/** The plain answer given when the records do not cover an English question (see `refusal.ts` for other languages). */
export const NOT_FOUND_ANSWER = "I couldn't find this in the knowledge base.";

/** An earlier turn of the visitor's conversation, as the client sends it (stateless on the server). */
export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}
