/**
 * Worker threads for server-side tool runs. Each run gets a thread to itself and a time limit;
 * when the limit passes, the thread is terminated (ending even a synchronous loop or a runaway
 * regular expression inside a library) and replaced on demand. Idle threads are unref'd so they
 * never keep the process alive, and ended after a minute of idleness.
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ThreadJob, ThreadResult, ThreadStarted } from './thread-entry.js';

export type ThreadOutcome = ThreadResult | { ok: false; timedOut: true };

interface Pending {
  job: Omit<ThreadJob, 'job'>;
  timeoutMs: number;
  settle(outcome: ThreadOutcome): void;
}

const idleMs = 60_000;

/**
 * Built code runs `thread-entry.js`. Sources (tsx, Vitest) run the `.ts` file through tsx's ESM
 * hooks, registered by a small bootstrap module: `--import tsx` in a worker's execArgv does not
 * apply to the worker's own entry on Node 20.
 */
function spawn(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./thread-entry.js', import.meta.url));
  const entry = new URL('./thread-entry.ts', import.meta.url).href;
  const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const bootstrap = `import { register } from ${JSON.stringify(tsxApi)}; register(); await import(${JSON.stringify(entry)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`));
}

class Thread {
  readonly worker = spawn();
  /** Resolves when the thread has loaded the registry and can take a job. */
  readonly ready: Promise<void>;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(onExit: (thread: Thread) => void) {
    this.ready = new Promise((resolve) => {
      const onReady = (message: { ready?: boolean }): void => {
        if (!message.ready) return;
        this.worker.off('message', onReady);
        resolve();
      };
      this.worker.on('message', onReady);
    });
    this.worker.unref();
    this.worker.on('exit', () => onExit(this));
    // A crash surfaces through 'exit'; the listener keeps it from becoming an uncaught error.
    this.worker.on('error', () => undefined);
  }

  idle(): void {
    this.idleTimer = setTimeout(() => void this.worker.terminate(), idleMs);
    this.idleTimer.unref();
  }

  busy(): void {
    clearTimeout(this.idleTimer);
  }
}

export class ToolThreadPool {
  private readonly idle: Thread[] = [];
  private readonly all = new Set<Thread>();
  private readonly queue: Pending[] = [];
  private nextJob = 1;
  private closed = false;

  constructor(
    private readonly size = Math.max(1, Math.min(4, os.availableParallelism() - 1)),
    private readonly maxQueue = 64,
  ) {}

  /** Whether a run can be queued now (the API answers 503 when not). */
  get saturated(): boolean {
    return this.queue.length >= this.maxQueue;
  }

  run(job: Omit<ThreadJob, 'job'>, timeoutMs: number): Promise<ThreadOutcome> {
    if (this.closed) return Promise.reject(new Error('the tool thread pool is closed'));
    return new Promise((settle) => {
      this.queue.push({ job, timeoutMs, settle });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.all].map((thread) => thread.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const thread = this.idle.pop() ?? (this.all.size < this.size ? this.create() : undefined);
      if (!thread) return;
      this.start(thread, this.queue.shift() as Pending);
    }
  }

  private create(): Thread {
    const thread = new Thread((gone) => {
      this.all.delete(gone);
      const at = this.idle.indexOf(gone);
      if (at !== -1) this.idle.splice(at, 1);
      if (!this.closed) this.dispatch();
    });
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
      pending.settle(outcome);
      if (reusable) {
        thread.idle();
        this.idle.push(thread);
        this.dispatch();
      }
    };
    const onMessage = (message: ThreadResult | ThreadStarted | { ready: true }): void => {
      if (!('job' in message) || message.job !== job) return;
      if ('started' in message) {
        // The tool's module is loaded (the first run of a thread imports it): the limit counts from here.
        timer = setTimeout(() => {
          finish({ ok: false, timedOut: true }, false);
          void thread.worker.terminate();
        }, pending.timeoutMs);
        return;
      }
      finish(message, true);
    };
    const onExit = (): void => finish({ job, ok: false, failure: 'the tool thread ended unexpectedly' }, false);
    let timer: NodeJS.Timeout | undefined;
    thread.worker.on('message', onMessage);
    thread.worker.once('exit', onExit);
    void thread.ready.then(() => {
      if (!done) thread.worker.postMessage({ job, ...pending.job } satisfies ThreadJob);
    });
  }
}
