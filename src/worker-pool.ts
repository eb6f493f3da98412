/**
 * A small pool of worker threads on one entry module (worker-threads.ts), shared by the upload
 * threads (knowledge/ingest-threads.ts) and the index threads (knowledge/query/index-build-threads.ts):
 * at most `size` threads, started on first use, unref'd while idle (they never keep the process
 * alive) and ended after `idleMs` of idleness; a thread that ends (crash, `terminate`) leaves the
 * pool and the next job gets a new one.
 *
 * What waits, and in which order, is the user's policy: the pool takes the next job from its
 * `WorkerQueue` whenever a thread is free, and hands it to `start` with a `PoolJob`, through which
 * the job talks to its thread and says when it is over (`finish`: the thread is free again, or,
 * not reusable, left to end). Replies are the thread's messages carrying the job's number.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from './worker-threads.js';

/** Jobs waiting for a thread, in the user's order. */
export interface WorkerQueue<T> {
  readonly length: number;
  /** The next job to start, or undefined when none may start now. */
  take(): T | undefined;
  /** Every waiting job, removed. */
  drain(): T[];
}

/** A job on its thread. */
export interface PoolJob {
  /** The job's number: the thread's replies to it carry it as `job`. */
  readonly id: number;
  readonly worker: Worker;
  /** Sends the job (with its number) to its thread. */
  send(message: object, transfer?: readonly ArrayBuffer[]): void;
  /** Ends the job; false when it had ended already. `reusable`: the thread is free for the next job (else the caller ends it or it ended). */
  finish(reusable: boolean): boolean;
}

/** What a started job does with its thread's replies and its end. */
export interface JobHandlers<Reply> {
  onReply(reply: Reply): void;
  /** The thread ended before the job finished (the job is finished, not reusable, before this is called). */
  onExit(): void;
  /** Called once when the job finishes, before the next job is taken. */
  onFinish?(reusable: boolean): void;
}

export interface WorkerPoolOptions<T, Reply> {
  /** `import.meta.url` of the module beside the thread's entry, and the entry (see `startWorker`). */
  callerUrl: string;
  entry: string;
  size: number;
  queue: WorkerQueue<T>;
  start(job: PoolJob, item: T): JobHandlers<Reply>;
  /** Idle time before a thread ends (default a minute). */
  idleMs?: number;
}

export class WorkerPool<T, Reply extends { job: number }> {
  readonly size: number;
  private readonly all = new Set<Worker>();
  private readonly idle = new Map<Worker, NodeJS.Timeout>();
  private nextJob = 1;
  private isClosed = false;

  constructor(private readonly options: WorkerPoolOptions<T, Reply>) {
    this.size = Math.max(1, options.size);
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** Whether a job would start at once (a thread is idle, or another may start). */
  hasFreeThread(): boolean {
    return this.idle.size > 0 || this.all.size < this.size;
  }

  /** Starts waiting jobs while threads are free (call after queueing one). */
  dispatch(): void {
    while (!this.isClosed && this.options.queue.length > 0 && this.hasFreeThread()) {
      const next = this.options.queue.take();
      if (next === undefined) return;
      const [idle] = this.idle;
      let worker: Worker;
      if (idle) {
        clearTimeout(idle[1]);
        this.idle.delete(idle[0]);
        worker = idle[0];
      } else worker = this.spawn();
      this.run(worker, next);
    }
  }

  /** Ends every thread; the jobs still waiting are returned (the caller refuses them). */
  async close(): Promise<T[]> {
    this.isClosed = true;
    const waiting = this.options.queue.drain();
    await Promise.all([...this.all].map((worker) => worker.terminate()));
    return waiting;
  }

  private spawn(): Worker {
    const worker = startWorker(this.options.callerUrl, this.options.entry);
    worker.unref();
    // A crash surfaces through 'exit'; the listener keeps it from becoming an uncaught error.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      this.all.delete(worker);
      clearTimeout(this.idle.get(worker));
      this.idle.delete(worker);
      this.dispatch();
    });
    this.all.add(worker);
    return worker;
  }

  private run(worker: Worker, item: T): void {
    const id = this.nextJob++;
    let done = false;
    // Set once `start` returns (a job may finish from inside `start`).
    const started: { handlers?: JobHandlers<Reply> } = {};
    const job: PoolJob = {
      id,
      worker,
      send: (message, transfer = []) => worker.postMessage({ job: id, ...message }, [...transfer]),
      finish: (reusable) => {
        if (done) return false;
        done = true;
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        worker.unref();
        started.handlers?.onFinish?.(reusable);
        if (reusable && !this.isClosed) {
          const timeout = setTimeout(() => void worker.terminate(), this.options.idleMs ?? 60_000);
          timeout.unref();
          this.idle.set(worker, timeout);
        }
        this.dispatch();
        return true;
      },
    };
    const onMessage = (reply: Reply): void => {
      if (reply.job === id) started.handlers?.onReply(reply);
    };
    const onExit = (): void => {
      if (job.finish(false)) started.handlers?.onExit();
    };
    worker.on('message', onMessage);
    worker.once('exit', onExit);
    worker.ref();
    started.handlers = this.options.start(job, item);
  }
}
