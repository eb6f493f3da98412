/**
 * A visitor's word on an answer: "Was this helpful?" (docs/decisions.md, "Feedback on answers").
 * The widget asks it under each answer from the records; `POST /api/v1/feedback` takes it with the
 * same key and whitelist checks as a query, counts as no query, and the owner's usage report lists
 * the questions whose answers visitors found unhelpful, with the records those answers cited.
 *
 * The server keeps no answers, so the feedback names what it is about: the question as the visitor
 * asked it (with the chat's earlier turns, as the query had them, so a follow-up is listed with the
 * questions it leaned on) and the ids of the records its answer cited. Both come from the client and are
 * untrusted: the question is bounded like a query's, the ids are checked for shape here and
 * resolved against the knowledge base's records only when the report is read (an id it does not
 * hold is not shown).
 */
import { DomainError } from '../../errors.js';
import { feedbackRules, type LimitSettings } from '../../limits/rules.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import { askedAfter } from '../answering/follow-up.js';
import { checkedConversation } from './conversation.js';
import { checkedQuery, type QueryService } from './query-service.js';
import { askedQuestion } from './same-question.js';
import type { UsageRecorder } from './usage-recorder.js';

/** Records one piece of feedback may name: an answer cites a handful. */
export const maxFeedbackSources = 10;

/** What a record id looks like (`rec_` and a random part, src/ids.ts), generously: 1 to 64 of these characters. */
const recordIdShape = /^[A-Za-z0-9_-]{1,64}$/;

export interface FeedbackInput {
  query: string;
  /** The chat's turns before the question, as the query sent them (`/body/conversation`). */
  conversation?: unknown;
  helpful: boolean;
  /** The record ids of the answer's citations (`sources[].recordId`), in its order. */
  sources?: readonly string[] | undefined;
}

export interface AnswerFeedback {
  /** The visitor's question, trimmed. */
  question: string;
  /** For a follow-up, the earlier questions it leaned on. */
  askedAfter?: string;
  helpful: boolean;
  /** Distinct, in the order given. */
  recordIds: string[];
}

/** The feedback checked: a 422 names the part refused (`/body/query`, `/body/sources/2`). */
export function checkedFeedback(input: FeedbackInput): AnswerFeedback {
  const question = checkedQuery(input.query, '/body/query');
  const after = askedAfter(question, checkedConversation(input.conversation, '/body/conversation'));
  const sources = input.sources ?? [];
  if (sources.length > maxFeedbackSources) {
    throw new DomainError('validation_failed', `sources may name at most ${maxFeedbackSources} records.`, {
      errors: [{ location: '/body/sources', message: `must have at most ${maxFeedbackSources} items` }],
    });
  }
  sources.forEach((id, i) => {
    if (!recordIdShape.test(id)) {
      throw new DomainError('validation_failed', 'sources must be the recordId values of the answer\'s sources.', {
        errors: [{ location: `/body/sources/${i}`, message: 'must be a record id' }],
      });
    }
  });
  return { ...askedQuestion(question, after), helpful: input.helpful, recordIds: [...new Set(sources)] };
}

/** Feedback as the route passes it: the caller's key and origin beside what it says. */
export interface FeedbackRequest extends FeedbackInput {
  apiKey: string | undefined;
  ragId: string;
  origin: string | undefined;
  referer: string | undefined;
}

export interface FeedbackServiceOptions {
  queries: Pick<QueryService, 'authorise'>;
  usage: Pick<UsageRecorder, 'recordFeedback'>;
  /** The shared limiter (Redis when configured), for the day's feedback per knowledge base. */
  limiter: RateLimiter;
  limits: Pick<LimitSettings, 'queryQuotaPerDay'>;
  clock?: () => number;
}

export class FeedbackService {
  private readonly clock: () => number;

  constructor(private readonly options: FeedbackServiceOptions) {
    this.clock = options.clock ?? Date.now;
  }

  /**
   * Checks the feedback, then the key and the caller's origin exactly as a query's (a page not on
   * the key's whitelist is refused), takes one of the knowledge base's feedback allowance for the
   * day, and records it with the usage, in the next batch. Takes none of its query limits: saying
   * an answer helped must not cost a question.
   */
  async give(request: FeedbackRequest): Promise<void> {
    const feedback = checkedFeedback(request);
    const { kb } = await this.options.queries.authorise(request);
    const now = this.clock();
    const decision = await this.options.limiter.consume(feedbackRules(this.options.limits, kb.ragId), now);
    if (!decision.allowed) {
      throw new DomainError(
        'rate_limited',
        `This knowledge base has taken its ${decision.refused?.limit ?? 0} pieces of feedback for today (UTC), as many as its questions. Try again after midnight UTC.`,
        { limit: 'feedback_day', retryAfterMs: decision.retryAfterMs },
        { rateLimit: decision },
      );
    }
    this.options.usage.recordFeedback({ ragId: kb.ragId, at: now, ...feedback });
  }
}
