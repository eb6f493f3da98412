/** The built-in answerer: grounded extractive answers, streamed word by word. */
import { answerExtractively } from '../answering/extractive.js';
import { tokensOf } from '../answering/stream-tokens.js';
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
    for (const text of tokensOf(result.answer)) yield { type: 'token', text };
    yield { type: 'done', answer: result.answer, grounded: result.grounded, sources: result.sources };
  }
}
