/**
 * Usage counters are collected in memory and written in batches (every few
 * seconds and at shutdown), so the query path never waits for a usage write.
 */
import type { UsageDelta, UsageStore } from '../../adapters/storage/port.js';

export interface QueryOutcome {
  ragId: string;
  /** When, in ms since the epoch. */
  at: number;
  cached: boolean;
  grounded: boolean;
  question: string;
}

const dayMs = 86_400_000;

/** A delta being collected; `at` becomes the store's ISO text only when written. */
type PendingDelta = Omit<UsageDelta, 'at'> & { at: number };

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
    const day = this.dayOf(outcome.at);
    const key = `${outcome.ragId}/${day}`;
    let delta = this.pending.get(key);
    if (!delta) {
      delta = { ragId: outcome.ragId, day, queries: 0, cacheHits: 0, unanswered: 0, unansweredQuestions: [], at: outcome.at };
      this.pending.set(key, delta);
    }
    delta.queries++;
    if (outcome.cached) delta.cacheHits++;
    if (!outcome.grounded) {
      delta.unanswered++;
      // Bounded per batch: a flood of unanswerable questions must not grow memory without end.
      if (delta.unansweredQuestions.length < 200) delta.unansweredQuestions.push(outcome.question.trim().slice(0, 500));
    }
    delta.at = outcome.at;
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
      const batch: UsageDelta[] = [...this.pending.values()].map((delta) => ({ ...delta, at: new Date(delta.at).toISOString() }));
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
