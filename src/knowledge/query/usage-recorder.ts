/**
 * Usage counters are collected in memory and written in batches (every few
 * seconds and at shutdown), so the query path never waits for a usage write.
 */
import type { UsageDelta, UsageStore } from '../../adapters/storage/port.js';

export interface QueryOutcome {
  ragId: string;
  at: Date;
  cached: boolean;
  grounded: boolean;
  question: string;
}

export class UsageRecorder {
  private pending = new Map<string, UsageDelta>();
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
    const day = outcome.at.toISOString().slice(0, 10);
    const key = `${outcome.ragId}/${day}`;
    let delta = this.pending.get(key);
    if (!delta) {
      delta = { ragId: outcome.ragId, day, queries: 0, cacheHits: 0, unanswered: 0, unansweredQuestions: [], at: outcome.at.toISOString() };
      this.pending.set(key, delta);
    }
    delta.queries++;
    if (outcome.cached) delta.cacheHits++;
    if (!outcome.grounded) {
      delta.unanswered++;
      // Bounded per batch: a flood of unanswerable questions must not grow memory without end.
      if (delta.unansweredQuestions.length < 200) delta.unansweredQuestions.push(outcome.question.trim().slice(0, 500));
    }
    delta.at = outcome.at.toISOString();
  }

  /** Writes what has been collected; concurrent calls are serialised. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = [...this.pending.values()];
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
