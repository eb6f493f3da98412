/**
 * Usage counters are collected in memory and written in batches (every few
 * seconds and at shutdown), so the query path never waits for a usage write.
 * Visitors' feedback on answers (answer-feedback.ts) travels in the same batches.
 */
import type { AskedQuestion, FeedbackDelta, UsageDelta, UsageStore } from '../../ports/storage.js';
import { askedQuestion, questionInContext, sameQuestion } from './same-question.js';

export interface QueryOutcome {
  ragId: string;
  /** When, in ms since the epoch. */
  at: number;
  cached: boolean;
  grounded: boolean;
  /** A greeting, thanks, "ok"… answered without the records: not an unanswered question for the owner. */
  smallTalk?: boolean;
  question: string;
  /** For a follow-up, the earlier questions it leaned on (`askedAfter`, follow-up.ts). */
  askedAfter?: string;
}

/** A visitor's feedback on an answer, checked (answer-feedback.ts). */
export interface FeedbackOutcome {
  ragId: string;
  at: number;
  question: string;
  /** For feedback on the answer to a follow-up, the earlier questions it leaned on. */
  askedAfter?: string;
  helpful: boolean;
  recordIds: string[];
}

const dayMs = 86_400_000;

/** Distinct unanswered questions kept per knowledge base and day in one batch. */
const MAX_QUESTIONS = 200;
/** Times one question is counted per batch: bounds the store's work under a flood of one question. */
const MAX_REPEATS = 200;

/** One unanswered question of a batch: the latest wording and how often it was asked. */
interface CountedQuestion extends AskedQuestion {
  count: number;
}

/** Trimmed and bounded as the store keeps it (at most 500 characters each). */
function bounded(question: string, askedAfter: string | undefined): AskedQuestion {
  return askedQuestion(question.trim().slice(0, 500), askedAfter?.slice(0, 500));
}

/** The batch's grouping key: `sameQuestion` of the question in its context (a follow-up with what it was asked after). */
const groupOf = (asked: AskedQuestion): string => sameQuestion(questionInContext(asked.question, asked.askedAfter));

/**
 * A delta being collected; `at` becomes the store's ISO text only when written. Unanswered
 * questions are grouped by `sameQuestion`, the definition the answer cache and the stored
 * question hash use, so a flood of one question ("Price?", "price", …) takes one of the
 * MAX_QUESTIONS places instead of crowding out the others.
 */
type PendingDelta = Omit<UsageDelta, 'at' | 'unansweredQuestions' | 'feedback'> & {
  at: number;
  questions: Map<string, CountedQuestion>;
  /** Feedback by `sameQuestion`, bounded as the questions are. */
  feedback: Map<string, FeedbackDelta>;
};

export class UsageRecorder {
  private pending = new Map<string, PendingDelta>();
  /** The UTC day of the last outcome, as YYYY-MM-DD, and where it starts: most outcomes fall on the same day. */
  private day = { start: 0, text: '1970-01-01' };
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: UsageStore,
    private readonly onError: (error: unknown) => void,
    intervalMs = 2000,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  record(outcome: QueryOutcome): void {
    const delta = this.deltaFor(outcome.ragId, outcome.at);
    delta.queries++;
    if (outcome.cached) delta.cacheHits++;
    if (!outcome.grounded && !outcome.smallTalk) {
      delta.unanswered++;
      this.countQuestion(delta.questions, bounded(outcome.question, outcome.askedAfter));
    }
    delta.at = outcome.at;
  }

  /** Feedback counts in the day's helpful or unhelpful total and beside its question (the latest wording and records win). */
  recordFeedback(outcome: FeedbackOutcome): void {
    const delta = this.deltaFor(outcome.ragId, outcome.at);
    delta.at = outcome.at;
    if (outcome.helpful) delta.helpful = (delta.helpful ?? 0) + 1;
    else delta.unhelpful = (delta.unhelpful ?? 0) + 1;
    const asked = bounded(outcome.question, outcome.askedAfter);
    const same = groupOf(asked);
    let entry = delta.feedback.get(same);
    if (!entry) {
      if (delta.feedback.size >= MAX_QUESTIONS) return;
      entry = { ...asked, recordIds: outcome.recordIds, helpful: 0, unhelpful: 0 };
      delta.feedback.set(same, entry);
    }
    Object.assign(entry, asked, { recordIds: outcome.recordIds });
    if (outcome.helpful) entry.helpful = Math.min(MAX_REPEATS, entry.helpful + 1);
    else entry.unhelpful = Math.min(MAX_REPEATS, entry.unhelpful + 1);
  }

  /** The pending delta of this knowledge base and the UTC day of `at`. */
  private deltaFor(ragId: string, at: number): PendingDelta {
    const day = this.dayOf(at);
    const key = `${ragId}/${day}`;
    let delta = this.pending.get(key);
    if (!delta) {
      delta = { ragId, day, queries: 0, cacheHits: 0, unanswered: 0, questions: new Map(), feedback: new Map(), at };
      this.pending.set(key, delta);
    }
    return delta;
  }

  /** Bounded per batch: a flood of unanswerable questions must not grow memory without end. */
  private countQuestion(questions: Map<string, CountedQuestion>, asked: AskedQuestion): void {
    const same = groupOf(asked);
    const seen = questions.get(same);
    if (seen) {
      Object.assign(seen, asked); // the latest wording, as the store keeps it
      seen.count = Math.min(MAX_REPEATS, seen.count + 1);
    } else if (questions.size < MAX_QUESTIONS) {
      questions.set(same, { ...asked, count: 1 });
    }
  }

  private dayOf(at: number): string {
    if (at < this.day.start || at >= this.day.start + dayMs) {
      const start = at - (((at % dayMs) + dayMs) % dayMs);
      this.day = { start, text: new Date(start).toISOString().slice(0, 10) };
    }
    return this.day.text;
  }

  /** Writes what has been collected; concurrent calls are serialised. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch: UsageDelta[] = [...this.pending.values()].map(({ questions, feedback, at, ...delta }) =>
        Object.assign(delta, {
          ...(feedback.size > 0 ? { feedback: [...feedback.values()] } : {}),
          // The store counts one per entry (and groups them by questionHash, which is sameQuestion's).
          unansweredQuestions: [...questions.values()].flatMap(({ count, ...asked }) => Array<AskedQuestion>(count).fill(asked)),
          at: new Date(at).toISOString(),
        }),
      );
      this.pending = new Map();
      try {
        await this.store.recordUsage(batch);
      } catch (error) {
        this.onError(error);
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
