/**
 * How an answer is produced from retrieved records. The built-in extractive
 * answerer and the optional LLM answerer both stream the same events, so the
 * query service and both endpoints do not care which one runs.
 */
import type { TermStats } from '../answering/plan-options.js';
import type { Answer, Citation, RetrievedRecord, Turn } from '../answering/types.js';

export type { Answer, Citation, RetrievedRecord, Turn };

export interface AnswerInput {
  query: string;
  botName: string;
  retrieved: RetrievedRecord[];
  /** The knowledge base's own term statistics, so sentence scoring weighs words as retrieval did. */
  stats?: TermStats | undefined;
  /** Earlier turns of the conversation, oldest first (validated and bounded by the query service). */
  conversation?: readonly Turn[] | undefined;
  /** The owner's own refusal text; when absent the refusal is a default in the question's language. */
  fallbackMessage?: string | null | undefined;
  signal: AbortSignal;
}

export type AnswerEvent =
  | { type: 'sources'; sources: Citation[] }
  | { type: 'token'; text: string }
  /**
   * `answer` is final and replaces the streamed tokens. It equals the tokens joined, unless `fallback` says the extractive
   * answer replaced the model's (failure mid-answer, nothing cited), or the LLM answerer dropped a sentence whose citations
   * all pointed at no passage (llm-grounding.ts).
   */
  | { type: 'done'; answer: string; grounded: boolean; sources: Citation[]; fallback?: boolean };

export interface Answerer {
  /** Part of the answer-cache key, so switching answerers never serves the other's answers. */
  readonly mode: string;
  answer(input: AnswerInput): AsyncGenerator<AnswerEvent>;
  /**
   * The whole answer at once, for an answerer that works it out in process (the extractive one):
   * the JSON endpoint then needs no events, no tokens and nothing to cancel.
   */
  complete?(input: Omit<AnswerInput, 'signal'>): Answer;
}
