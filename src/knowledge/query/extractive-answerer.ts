/**
 * The built-in answerer: grounded extractive answers. The whole answer is known at once, so a
 * stream carries it as one `token` event, as a cached answer does: cutting it into words would
 * cost a frame, a JSON encoding and two generator steps per word, and the words would still leave
 * in the same socket write (docs/decisions.md, Streams).
 */
import { answerExtractively } from '../answering/extractive.js';
import { RecordUnitsCache } from '../answering/units.js';
import type { Answer, AnswerEvent, AnswerInput, Answerer } from './answerer.js';

export class ExtractiveAnswerer implements Answerer {
  readonly mode = 'extractive';

  /** Analysed records, kept between queries by this answerer. */
  constructor(private readonly units = new RecordUnitsCache()) {}

  complete(input: Omit<AnswerInput, 'signal'>): Answer {
    return answerExtractively(input.query, input.retrieved, { stats: input.stats, units: this.units, conversation: input.conversation, fallbackMessage: input.fallbackMessage });
  }

  async *answer(input: AnswerInput): AsyncGenerator<AnswerEvent> {
    const result = this.complete(input);
    yield { type: 'sources', sources: result.sources };
    if (result.answer) yield { type: 'token', text: result.answer };
    yield { type: 'done', answer: result.answer, grounded: result.grounded, sources: result.sources };
  }
}
