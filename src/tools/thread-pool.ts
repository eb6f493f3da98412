/**
 * Worker threads for server-side tool runs. Each run gets a thread to itself, a time limit and a
 * memory limit (the thread's `resourceLimits`); when either passes, the thread is ended (the only
 * way to stop a synchronous loop or a runaway library in JavaScript) and replaced on demand. Idle
 * threads are unref'd so they never keep the process alive, and ended after a minute of idleness.
 *
 * Fair use (docs/utilities.md, "Fair use of the worker pool"): runs wait in one queue per client
 * (IP, or a signed bot's key) and threads are handed out round-robin across clients (../fair-queue.ts), so one
 * client's flood never stands in front of another client's run. A client may have at most
 * `maxRunningPerClient` runs on threads and `maxQueuedPerClient` waiting; the whole queue is bounded
 * by count and by the input bytes it holds. Refusals come back as outcomes (`refused`), never thrown.
 */
import os from 'node:os';
import type { ResourceLimits, Worker, WorkerOptions } from 'node:worker_threads';
import { FairQueue } from '../fair-queue.js';
import { startWorker } from '../worker-threads.js';
import type { ThreadJob, ThreadResult, ThreadStarted } from './thread-entry.js';

/** Why a run was not queued: the whole queue, the client's share of it, or the bytes it holds. */
export type QueueRefusal = 'queue_full' | 'client_share' | 'bytes_full';

export type ThreadOutcome =
  | ThreadResult
  | { ok: false; timedOut: true }
  | { ok: false; outOfMemory: true; memoryLimitMb: number }
  | { ok: false; refused: QueueRefusal };

export interface ToolThreadPoolOptions {
  /** Worker threads at most. */
  size?: number;
  /** Runs waiting (not yet on a thread) at most, over all clients. */
  maxQueue?: number;
  /** Runs one client may have waiting. Default: an eighth of the queue, at least 2. */
  maxQueuedPerClient?: number;
  /** Runs one client may have on threads at once. Default: half the threads, at least 1. */
  maxRunningPerClient?: number;
  /** Input bytes the waiting runs may hold together (decoded files stay in memory while they wait). */
  maxQueuedBytes?: number;
  /** Heap limits of each thread; a run that passes them ends the thread (ERR_WORKER_OUT_OF_MEMORY). */
  resourceLimits?: ResourceLimits;
}

interface Pending {
  job: Omit<ThreadJob, 'job'>;
  timeoutMs: number;
  client: string;
  bytes: number;
  /** Called once when the run's thread starts it (its time limit counts from then). */
  onStarted?: (() => void) | undefined;
  settle(outcome: ThreadOutcome): void;
}

const idleMs = 60_000;

/** The tool thread's entry module, from built code and from sources alike (../worker-threads.ts). */
function spawn(options: WorkerOptions): Worker {
  return startWorker(import.meta.url, './thread-entry', options);
}

class Thread {
  readonly worker: Worker;
  /** Resolves when the thread has loaded the registry and can take a job. */
  readonly ready: Promise<void>;
  /** Set when the thread ended for passing its heap limit. */
  outOfMemory = false;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(onExit: (thread: Thread) => void, resourceLimits?: ResourceLimits) {
    this.worker = spawn(resourceLimits ? { resourceLimits } : {});
    this.ready = new Promise((resolve) => {
      const onReady = (message: { ready?: boolean }): void => {
        if (!message.ready) return;
        this.worker.off('message', onReady);
        resolve();
      };
      this.worker.on('message', onReady);
    });
    this.worker.unref();
    // 'error' comes before 'exit': remember why the thread died for the run on it.
    this.worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') this.outOfMemory = true;
    });
    this.worker.on('exit', () => onExit(this));
  }

  idle(): void {
    this.idleTimer = setTimeout(() => void this.worker.terminate(), idleMs);
    this.idleTimer.unref();
  }

  busy(): void {
    clearTimeout(this.idleTimer);
  }
}

/** Threads for the machine: one core is left to the HTTP thread; at most 8. */
export function defaultPoolSize(cores = os.availableParallelism()): number {
  return Math.max(1, Math.min(8, cores - 1));
}

export class ToolThreadPool {
  readonly size: number;
  readonly maxQueue: number;
  readonly maxQueuedPerClient: number;
  readonly maxRunningPerClient: number;
  readonly maxQueuedBytes: number;
  private readonly resourceLimits: ResourceLimits | undefined;
  private readonly idle: Thread[] = [];
  private readonly all = new Set<Thread>();
  /** Waiting runs per client, handed out round-robin; runs on threads per client. */
  private readonly waiting: FairQueue<Pending>;
  private queuedBytes = 0;
  private nextJob = 1;
  private closed = false;

  /** `new ToolThreadPool(size, maxQueue)` as before, or with the options object. */
  constructor(sizeOrOptions: number | ToolThreadPoolOptions = {}, maxQueue?: number) {
    const options = typeof sizeOrOptions === 'number' ? { size: sizeOrOptions, ...(maxQueue ? { maxQueue } : {}) } : sizeOrOptions;
    this.size = Math.max(1, options.size ?? defaultPoolSize());
    this.maxQueue = Math.max(1, options.maxQueue ?? 64);
    this.maxQueuedPerClient = Math.max(1, options.maxQueuedPerClient ?? Math.max(2, Math.ceil(this.maxQueue / 8)));
    this.maxRunningPerClient = Math.max(1, options.maxRunningPerClient ?? Math.ceil(this.size / 2));
    this.maxQueuedBytes = options.maxQueuedBytes ?? Number.POSITIVE_INFINITY;
    this.resourceLimits = options.resourceLimits;
    this.waiting = new FairQueue(this.maxRunningPerClient);
  }

  /** Whether a run can be queued now (the API answers 503 when not). */
  get saturated(): boolean {
    return this.waiting.length >= this.maxQueue;
  }

  /** Runs waiting for a thread, over all clients. */
  get queueLength(): number {
    return this.waiting.length;
  }

  /** Why a run of `bytes` from `client` would be refused now, or undefined when it would be queued. */
  refusal(client: string, bytes = 0): QueueRefusal | undefined {
    const mine = this.waiting.waitingOf(client);
    // Start at once when a thread is free for this client: no queue share is used.
    const startsNow = mine === 0 && this.waiting.mayRun(client) && (this.idle.length > 0 || this.all.size < this.size);
    if (startsNow) return undefined;
    if (mine >= this.maxQueuedPerClient) return 'client_share';
    if (this.waiting.length >= this.maxQueue) return 'queue_full';
    if (this.queuedBytes + bytes > this.maxQueuedBytes && this.waiting.length > 0) return 'bytes_full';
    return undefined;
  }

  /**
   * Queues a run for `client` (default: one shared bucket); `bytes` is the input's size, counted
   * against `maxQueuedBytes` while it waits.
   */
  run(job: Omit<ThreadJob, 'job'>, timeoutMs: number, client = 'anonymous', bytes = 0, onStarted?: () => void): Promise<ThreadOutcome> {
    if (this.closed) return Promise.reject(new Error('the tool thread pool is closed'));
    const refused = this.refusal(client, bytes);
    if (refused) return Promise.resolve({ ok: false, refused });
    return new Promise((settle) => {
      this.waiting.push(client, { job, timeoutMs, client, bytes, onStarted, settle });
      this.queuedBytes += bytes;
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.all].map((thread) => thread.worker.terminate()));
  }

  /** The next waiting run, round-robin over clients, skipping clients at their running limit; it counts as running. */
  private take(): Pending | undefined {
    const next = this.waiting.take();
    if (next) this.queuedBytes -= next.item.bytes;
    return next?.item;
  }

  private dispatch(): void {
    while (this.waiting.length > 0 && (this.idle.length > 0 || this.all.size < this.size)) {
      const pending = this.take();
      if (!pending) return;
      const thread = this.idle.pop() ?? this.create();
      this.start(thread, pending);
    }
  }

  private create(): Thread {
    const thread = new Thread((gone) => {
      this.all.delete(gone);
      const at = this.idle.indexOf(gone);
      if (at !== -1) this.idle.splice(at, 1);
      if (!this.closed) this.dispatch();
    }, this.resourceLimits);
    this.all.add(thread);
    return thread;
  }

  private start(thread: Thread, pending: Pending): void {
    thread.busy();
    thread.worker.ref();
    const job = this.nextJob++;
    let done = false;
    const finish = (outcome: ThreadOutcome, reusable: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      thread.worker.off('message', onMessage);
      thread.worker.off('exit', onExit);
      thread.worker.unref();
      this.waiting.release(pending.client);
      pending.settle(outcome);
      if (reusable) {
        thread.idle();
        this.idle.push(thread);
      }
      // A client under its running limit again may have runs waiting, even when the thread is gone.
      if (!this.closed) this.dispatch();
    };
    const onMessage = (message: ThreadResult | ThreadStarted | { ready: true }): void => {
      if (!('job' in message) || message.job !== job) return;
      if ('started' in message) {
        // The tool's module is loaded (the first run of a thread imports it): the limit counts from here.
        timer = setTimeout(() => {
          finish({ ok: false, timedOut: true }, false);
          void thread.worker.terminate();
        }, pending.timeoutMs);
        try {
          pending.onStarted?.();
        } catch {
          // A listener's failure (progress reporting) is not the run's.
        }
        return;
      }
      // Over the limit on the thread's own clock: the timer lost a race with the result (a busy main thread).
      if (message.runMs !== undefined && message.runMs > pending.timeoutMs) finish({ ok: false, timedOut: true }, true);
      else finish(message, true);
    };
    const onExit = (): void => {
      const memoryLimitMb = this.resourceLimits?.maxOldGenerationSizeMb;
      if (thread.outOfMemory && memoryLimitMb !== undefined) finish({ ok: false, outOfMemory: true, memoryLimitMb }, false);
      else finish({ job, ok: false, failure: 'the tool thread ended unexpectedly' }, false);
    };
    let timer: NodeJS.Timeout | undefined;
    thread.worker.on('message', onMessage);
    thread.worker.once('exit', onExit);
    void thread.ready.then(() => {
      if (!done) thread.worker.postMessage({ job, ...pending.job } satisfies ThreadJob);
    });
  }
}
