/**
 * Waiting work kept per client and handed out round-robin across clients, with a cap on how
 * much of it one client may have running at once. Shared by the utilities' thread pool
 * (tools/thread-pool.ts, clients are IPs or bot keys) and the ingestion threads
 * (knowledge/ingest-threads.ts, clients are accounts): one client's flood never stands in front
 * of another client's work, which waits for at most one item per client ahead of it.
 *
 * Only bookkeeping: no threads, no timers, no limits on what may be queued (the callers refuse
 * before `push`, each with its own catalogue error).
 */
export class FairQueue<T> {
  /** Waiting items per client, and the clients in round-robin order (those with waiting items). */
  private readonly waiting = new Map<string, T[]>();
  private readonly turn: string[] = [];
  private readonly running = new Map<string, number>();
  private count = 0;

  constructor(readonly maxRunningPerClient: number) {}

  /** Items waiting, over all clients. */
  get length(): number {
    return this.count;
  }

  waitingOf(client: string): number {
    return this.waiting.get(client)?.length ?? 0;
  }

  runningOf(client: string): number {
    return this.running.get(client) ?? 0;
  }

  /** Whether `client` may start one more item now (below its running cap). */
  mayRun(client: string): boolean {
    return this.runningOf(client) < this.maxRunningPerClient;
  }

  push(client: string, item: T): void {
    let queue = this.waiting.get(client);
    if (!queue) {
      queue = [];
      this.waiting.set(client, queue);
      this.turn.push(client);
    }
    queue.push(item);
    this.count++;
  }

  /**
   * The next waiting item, round-robin over clients, skipping clients at their running cap; it
   * counts as running for its client until `release`.
   */
  take(): { client: string; item: T } | undefined {
    for (let i = 0; i < this.turn.length; i++) {
      const client = this.turn[i] as string;
      if (!this.mayRun(client)) continue;
      const queue = this.waiting.get(client) as T[];
      const item = queue.shift() as T;
      this.turn.splice(i, 1);
      if (queue.length > 0) this.turn.push(client);
      else this.waiting.delete(client);
      this.count--;
      this.running.set(client, this.runningOf(client) + 1);
      return { client, item };
    }
    return undefined;
  }

  /** Ends one running item of `client` (taken by `take`). */
  release(client: string): void {
    const count = this.runningOf(client) - 1;
    if (count > 0) this.running.set(client, count);
    else this.running.delete(client);
  }

  /** Removes a waiting item (its client gave up); false when it is no longer waiting. */
  remove(client: string, item: T): boolean {
    const queue = this.waiting.get(client);
    const at = queue?.indexOf(item) ?? -1;
    if (!queue || at === -1) return false;
    queue.splice(at, 1);
    this.count--;
    if (queue.length === 0) {
      this.waiting.delete(client);
      this.turn.splice(this.turn.indexOf(client), 1);
    }
    return true;
  }

  /** Removes and returns every waiting item (at shutdown). */
  drain(): T[] {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    this.turn.length = 0;
    this.count = 0;
    return all;
  }
}
