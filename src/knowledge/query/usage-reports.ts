/**
 * The owner's usage report of a knowledge base (product.md §4): queries, cache hits, unanswered
 * questions and visitors' feedback per UTC day, the totals, the limits, beside each unanswered
 * question the words of it that no record uses (QueryService.unknownWords), and the questions
 * whose answers visitors found unhelpful with the records those answers cited. One service for the
 * REST endpoint and the MCP `get_usage` tool, so both say the same.
 */
import { DomainError } from '../../errors.js';
import type { AskedQuestion, UsageStore } from '../../ports/storage.js';
import type { UsageReport } from '../../sdk/api-schemas.js';
import { askedQuestion } from './same-question.js';

/** Unanswered questions (and questions given unhelpful feedback) a report lists, most asked first. */
const LISTED = 50;

export interface UsageReportsOptions {
  store: UsageStore;
  /** Writes this instance's pending counters: someone reading the report wants the latest. */
  flush: () => Promise<void>;
  /** For each question, the words of it no record uses. */
  unknownWords: (ragId: string, questions: readonly string[]) => Promise<string[][]>;
  /** For each question, whether the records answer it now (undefined: not asked). */
  answeredNow?: (ragId: string, questions: readonly AskedQuestion[]) => Promise<(boolean | undefined)[]>;
  limits: { queryRatePerMinute: number; queryQuotaPerDay: number };
  /** Told when the words (or whether each is answered now) could not be found; the report then comes without them. */
  onUnknownWordsFailed: (error: unknown) => void;
  now?: () => number;
}

export class UsageReports {
  private readonly now: () => number;

  constructor(private readonly options: UsageReportsOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The report of the last `days` UTC days (today included); not found unless the knowledge base is the account's. */
  async report(accountId: string, ragId: string, days = 30): Promise<UsageReport> {
    const { store, flush, unknownWords, limits, onUnknownWordsFailed } = this.options;
    await flush();
    const since = new Date(this.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
    const report = await store.usage(accountId, ragId, since, LISTED);
    if (!report) throw new DomainError('not_found', 'No such knowledge base in this account.');
    const totals = { queries: 0, cacheHits: 0, unanswered: 0, helpful: 0, unhelpful: 0 };
    for (const day of report.days) for (const name of Object.keys(totals) as (keyof typeof totals)[]) totals[name] += day[name];
    // Hints beside the report, each read from the index: should it be unreadable now (PostgreSQL
    // down), the report still comes, without them.
    const hint = <T>(work: Promise<T[]> | undefined): Promise<T[]> =>
      (work ?? Promise.resolve([])).catch((error: unknown) => {
        onUnknownWordsFailed(error);
        return [];
      });
    const asked = report.unanswered.map((u) => askedQuestion(u.question, u.askedAfter));
    const [words, answered] = await Promise.all([
      hint(unknownWords(ragId, asked.map((a) => a.question))),
      hint(this.options.answeredNow?.(ragId, asked)),
    ]);
    const unanswered = report.unanswered.map((u, i) => {
      const now = answered[i];
      return { ...u, unknownWords: words[i] ?? [], ...(now === undefined ? {} : { answeredNow: now }) };
    });
    return { days: report.days, totals, unanswered, feedback: report.feedback, limits: { queriesPerMinute: limits.queryRatePerMinute, queriesPerDay: limits.queryQuotaPerDay } };
  }

  /** Takes a question off the unanswered list (a follow-up named with what it was asked after); not found when it is not there. */
  async dismiss(accountId: string, ragId: string, asked: AskedQuestion): Promise<void> {
    if (!(await this.options.store.dismissUnanswered(accountId, ragId, asked))) throw new DomainError('not_found', 'No such unanswered question.');
  }

  /** Takes a question's feedback off the report; not found when there is none. */
  async dismissFeedback(accountId: string, ragId: string, asked: AskedQuestion): Promise<void> {
    if (!(await this.options.store.dismissFeedback(accountId, ragId, asked))) throw new DomainError('not_found', 'No feedback on such a question.');
  }
}
