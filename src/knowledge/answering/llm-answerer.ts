/**
 * Answers with an OpenAI-compatible model, from the retrieved passages only,
 * with the earlier turns of the conversation as prior chat messages.
 * Tokens stream as the model writes them, with unresolvable citations removed
 * on the way. In `done`, a sentence whose citations all fail to resolve is
 * dropped whole (llm-grounding.ts), so `done.answer` can be shorter than the
 * streamed text; clients replace the streamed text with it. If the model fails
 * or is too slow before its first token, the extractive answer is given
 * instead; if it fails mid-answer, `done` carries the extractive answer with
 * `fallback: true` (so does an answer that cites no passage once unsupported
 * sentences are gone: it cannot be checked against the records). A model that
 * answers with the not-found sentinel, or nothing retrieved, yields the refusal:
 * the owner's fallback message, else the default in the question's language.
 */
import type { ChatModel } from '../../ports/chat-model.js';
import type { AnswerEvent, AnswerInput, Answerer } from '../query/answerer.js';
import { detectQuestionLanguage } from '../language/detect.js';
import { citedIndices, removeDanglingCitations } from './citations.js';
import { answerExtractively } from './extractive.js';
import { RecordUnitsCache } from './units.js';
import { contextualQuery } from './follow-up.js';
import { StreamingCitationFilter } from './llm-citation-filter.js';
import { dropUnsupportedSentences } from './llm-grounding.js';
import { buildMessages, NOT_FOUND_SENTINEL } from './llm-prompt.js';
import { refusalText } from './refusal.js';
import { tokensOf } from './stream-tokens.js';
import type { Answer, Citation } from './types.js';

export interface LlmAnswererOptions {
  /** Longest wait for the first token before falling back. */
  firstTokenTimeoutMs: number;
  /** Longest whole answer. */
  totalTimeoutMs: number;
  onFailure?: (error: unknown) => void;
}

export class LlmAnswerer implements Answerer {
  readonly mode: string;
  /** Analysed records for the extractive fallback, kept between queries by this answerer. */
  private readonly units = new RecordUnitsCache();

  constructor(
    private readonly client: ChatModel,
    model: string,
    private readonly options: LlmAnswererOptions,
  ) {
    this.mode = `llm:${model}`;
  }

  async *answer(input: AnswerInput): AsyncGenerator<AnswerEvent> {
    // The knowledge base's language breaks ties for a question too short to tell.
    const refusal = refusalText(detectQuestionLanguage(input.query, input.stats?.language), input.fallbackMessage);
    if (input.retrieved.length === 0) {
      // Nothing retrieved: nothing to ground a model on.
      yield* replay(refusal, false, []);
      return;
    }
    // The fallback answers the question as the conversation makes it, as retrieval searched it.
    const extractive = orRefusal(answerExtractively(contextualQuery(input.query, input.conversation), input.retrieved, { stats: input.stats, units: this.units }), refusal);
    const sources: Citation[] = input.retrieved.map((r) => ({ sourceName: r.sourceName, title: r.title, recordId: r.recordId, passage: r.text, score: r.score }));
    const controller = new AbortController();
    const abort = () => controller.abort();
    input.signal.addEventListener('abort', abort, { once: true });
    const total = setTimeout(abort, this.options.totalTimeoutMs);
    let firstToken = setTimeout(abort, this.options.firstTokenTimeoutMs);
    const filter = new StreamingCitationFilter(sources.length);
    let raw = '';
    let emitted = '';
    let announced = false;
    try {
      for await (const delta of this.client.stream(buildMessages(input.botName, input.query, input.retrieved, input.conversation), controller.signal)) {
        clearTimeout(firstToken);
        firstToken = undefined as unknown as NodeJS.Timeout;
        raw += delta;
        // Hold output until it cannot be the sentinel any more.
        if (!announced && couldBeSentinel(raw)) continue;
        if (!announced) {
          announced = true;
          yield { type: 'sources', sources };
          const text = filter.push(raw);
          emitted += text;
          if (text) yield { type: 'token', text };
          continue;
        }
        const text = filter.push(delta);
        emitted += text;
        if (text) yield { type: 'token', text };
      }
      if (!announced) {
        // Empty or the sentinel: the model found no answer in the passages.
        yield* replay(refusal, false, []);
        return;
      }
      const tail = filter.flush();
      emitted += tail;
      if (tail) yield { type: 'token', text: tail };
      // With no sentence dropped, `done` is exactly the streamed text (the filter's output, cleaned once more).
      const checked = dropUnsupportedSentences(raw, sources.length);
      const answer = checked.dropped > 0 ? checked.text : removeDanglingCitations(emitted, sources.length);
      if (citedIndices(answer).length === 0) {
        // An answer that cites nothing cannot be checked against the records: give the extractive one.
        yield { type: 'done', answer: extractive.answer, grounded: extractive.grounded, sources: extractive.sources, fallback: true };
        return;
      }
      yield { type: 'done', answer, grounded: true, sources };
    } catch (error) {
      if (input.signal.aborted) return;
      this.options.onFailure?.(error);
      if (!announced) {
        yield* replay(extractive.answer, extractive.grounded, extractive.sources);
      } else {
        yield { type: 'done', answer: extractive.answer, grounded: extractive.grounded, sources: extractive.sources, fallback: true };
      }
    } finally {
      clearTimeout(total);
      clearTimeout(firstToken);
      input.signal.removeEventListener('abort', abort);
    }
  }
}

/** The sentinel, a prefix of it, or the sentinel with the full stop models like to add. */
function couldBeSentinel(raw: string): boolean {
  const text = raw.trim();
  return NOT_FOUND_SENTINEL.startsWith(text) || (text.startsWith(NOT_FOUND_SENTINEL) && /^[.!]*$/.test(text.slice(NOT_FOUND_SENTINEL.length)));
}

/** The extractive answer, or the refusal when it abstains. */
function orRefusal(answer: Answer, refusal: string): Answer {
  return answer.grounded ? answer : { answer: refusal, grounded: false, sources: [] };
}

async function* replay(answer: string, grounded: boolean, sources: Citation[]): AsyncGenerator<AnswerEvent> {
  yield { type: 'sources', sources };
  for (const text of tokensOf(answer)) yield { type: 'token', text };
  yield { type: 'done', answer, grounded, sources };
}
