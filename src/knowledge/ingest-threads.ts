/**
 * Worker threads that prepare uploads (prepare-upload.ts) so that extraction and hashing never
 * run on the HTTP thread. A small fixed number of threads (../worker-pool.ts), started on first use. A preparation
 * that passes `timeoutMs` ends its thread (the only way to stop synchronous work) and is refused
 * with time_limit_exceeded. Idle threads are unref'd, so they never keep the process alive, and
 * end after a minute of idleness.
 *
 * Fair across accounts (docs/ingestion.md §10): waiting uploads are kept per account and threads
 * are handed out round-robin (../fair-queue.ts, as for the utilities), so one account's ten large
 * uploads never stand in front of another account's small one. An account may have
 * `maxRunningPerAccount` uploads on threads and `maxQueuedPerAccount` waiting (then 429
 * rate_limited, `limit: "upload_queue"`); all accounts together `maxQueue` waiting (then 503
 * server_busy). An upload whose `signal` aborts (its client disconnected) leaves the queue at once,
 * or, when it is already on a thread, ends that thread; either way it is refused with
 * client_closed_request and nothing of it reaches the store.
 */
import os from 'node:os';
import { DomainError } from '../errors.js';
import { FairQueue } from '../fair-queue.js';
import { type JobHandlers, type PoolJob, WorkerPool } from '../worker-pool.js';
import type { IngestJob, IngestResult } from './ingest-worker.js';
import type { PreparedUpload, PrepareInput } from './prepare-upload.js';

export interface IngestThreadOptions {
  /** Threads at most. Default: one per core beyond the HTTP thread's, at most 2. */
  size?: number;
  /** Uploads waiting for a thread at most, over all accounts (then 503 server_busy). */
  maxQueue?: number;
  /** Uploads one account may have waiting (then 429 rate_limited). Default 4. */
  maxQueuedPerAccount?: number;
  /** Uploads one account may have on threads at once. Default: half the threads, at least 1. */
  maxRunningPerAccount?: number;
  /** Time one preparation may take, in milliseconds. */
  timeoutMs?: number;
  /** Told of every upload's steps, in order (tests and metrics). */
  observer?: (event: IngestEvent) => void;
}

export interface IngestEvent {
  /** `cancelled`: its client left, while it waited (it never started) or while it was read (its thread was ended). */
  type: 'queued' | 'started' | 'finished' | 'cancelled';
  account: string;
  /** Uploads waiting after the event, over all accounts. */
  queued: number;
}

export interface PrepareOptions {
  /** Whose upload it is: each account has its own queue. Default: one shared bucket. */
  account?: string;
  /** Aborts when the client has gone: the upload leaves the queue, or its thread is ended. */
  signal?: AbortSignal | undefined;
}

interface Waiting {
  input: PrepareInput;
  account: string;
  signal: AbortSignal | undefined;
  resolve(prepared: PreparedUpload): void;
  reject(error: Error): void;
}

/** What a refused account is told to wait: about one preparation of a large file. */
const retryAfterMs = 5000;

/** The error for an upload whose client went away: nobody reads it, but logs and metrics do (499). */
function clientGone(running: boolean): DomainError {
  return new DomainError(
    'client_closed_request',
    `The client closed the request while the upload was ${running ? 'being read; reading was stopped' : 'waiting to be read; it was never read'}. Nothing was stored.`,
  );
}

export class IngestThreads {
  readonly size: number;
  readonly maxQueue: number;
  readonly maxQueuedPerAccount: number;
  private readonly timeoutMs: number;
  private readonly observer: ((event: IngestEvent) => void) | undefined;
  private readonly queue: FairQueue<Waiting>;
  private readonly pool: WorkerPool<Waiting, IngestResult>;

  constructor(options: IngestThreadOptions = {}) {
    this.size = Math.max(1, options.size ?? Math.min(2, os.availableParallelism() - 1));
    this.maxQueue = Math.max(0, options.maxQueue ?? 16);
    this.maxQueuedPerAccount = Math.max(1, options.maxQueuedPerAccount ?? 4);
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.observer = options.observer;
    const queue = (this.queue = new FairQueue(Math.max(1, options.maxRunningPerAccount ?? Math.ceil(this.size / 2))));
    this.pool = new WorkerPool({
      callerUrl: import.meta.url,
      entry: './ingest-worker',
      size: this.size,
      // Accounts take turns (round-robin), each within its running share.
      queue: {
        // Made once per pool, not per request: its own hidden class costs nothing here.
        // eslint-disable-next-line no-restricted-syntax
        get length() {
          return queue.length;
        },
        take: () => queue.take()?.item,
        drain: () => queue.drain(),
      },
      start: (job, waiting) => this.run(job, waiting),
    });
  }

  /** Uploads waiting for a thread, over all accounts. */
  get queueLength(): number {
    return this.queue.length;
  }

  /** Prepares an upload on a thread; throws the DomainError the preparation met, if any. */
  prepare(input: PrepareInput, options: PrepareOptions = {}): Promise<PreparedUpload> {
    if (this.pool.closed) return Promise.reject(new Error('the ingestion threads are closed'));
    const account = options.account ?? 'anonymous';
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(clientGone(false));
    const refused = this.refusal(account);
    if (refused) return Promise.reject(refused);
    return new Promise((resolve, reject) => {
      const waiting: Waiting = { input, account, signal, resolve, reject };
      this.queue.push(account, waiting);
      this.tell('queued', account);
      signal?.addEventListener('abort', () => this.cancel(waiting), { once: true });
      this.pool.dispatch();
    });
  }

  async close(): Promise<void> {
    for (const waiting of await this.pool.close()) waiting.reject(new Error('the ingestion threads are closed'));
  }

  /** Why an upload of `account` cannot wait now, or undefined when it can (or starts at once). */
  private refusal(account: string): DomainError | undefined {
    const mine = this.queue.waitingOf(account);
    if (mine === 0 && this.queue.mayRun(account) && this.pool.hasFreeThread()) return undefined;
    if (mine >= this.maxQueuedPerAccount) {
      return new DomainError(
        'rate_limited',
        `This account already has ${mine} uploads waiting to be read; wait for them to finish before sending more.`,
        { limit: 'upload_queue', retryAfterMs },
      );
    }
    if (this.queue.length >= this.maxQueue) {
      return new DomainError('server_busy', 'Too many uploads are being read right now. Try again in a moment.', { retryAfterMs });
    }
    return undefined;
  }

  /** A waiting upload whose client went away leaves the queue; a running one is stopped by run(). */
  private cancel(waiting: Waiting): void {
    if (!this.queue.remove(waiting.account, waiting)) return;
    this.tell('cancelled', waiting.account);
    waiting.reject(clientGone(false));
  }

  private tell(type: IngestEvent['type'], account: string): void {
    this.observer?.({ type, account, queued: this.queue.length });
  }

  private run(job: PoolJob, waiting: Waiting): JobHandlers<IngestResult> {
    const { signal } = waiting;
    let event: IngestEvent['type'] = 'finished';
    // The client left while its upload was being read: end the thread (synchronous work cannot be
    // interrupted otherwise); the next upload gets a new one.
    const onAbort = (): void => {
      event = 'cancelled';
      if (!job.finish(false)) return;
      void job.worker.terminate();
      waiting.reject(clientGone(true));
    };
    const timer = setTimeout(() => {
      if (!job.finish(false)) return;
      void job.worker.terminate();
      waiting.reject(
        new DomainError('time_limit_exceeded', `Reading the upload took longer than ${this.timeoutMs} ms and was stopped. Nothing was stored.`, { limitMs: this.timeoutMs }),
      );
    }, this.timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    this.tell('started', waiting.account);
    job.send(waiting.input satisfies Omit<IngestJob, 'job'>);
    return {
      onReply: (result) => {
        if (!job.finish(true)) return;
        if (result.ok) waiting.resolve(result.prepared);
        else if ('error' in result) waiting.reject(new DomainError(result.error.code, result.error.detail, result.error.extra));
        else waiting.reject(new Error(`upload preparation failed: ${result.failure}`));
      },
      onExit: () => waiting.reject(new Error('the ingestion thread ended unexpectedly')),
      // Another upload of this account may wait for its running share, even when the thread is gone.
      onFinish: () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.queue.release(waiting.account);
        this.tell(event, waiting.account);
      },
    };
  }
}
