/**
 * Worker threads that build cold BM25F indexes (a knowledge base's first query after start-up or
 * eviction, or a change too large to apply record by record), so that building never runs on the
 * HTTP thread: while a large knowledge base's index builds, queries to every other knowledge base
 * go on. A small fixed number of threads, started on first use, unref'd while idle and ended after
 * a minute of idleness. Waiting builds are taken smallest first, so a small knowledge base's cold
 * query does not wait behind a large one's build when both wait for a thread.
 */
import type { Worker } from 'node:worker_threads';
import type { CompactIndex } from '../retrieval/compact-index.js';
import { startWorker } from '../../worker-threads.js';
import type { IndexBuildJob, IndexBuildResult } from './index-build-worker.js';

export interface IndexBuildInput {
  titles: (string | null)[];
  texts: string[];
}

interface Waiting {
  input: IndexBuildInput;
  resolve(compact: CompactIndex): void;
  reject(error: Error): void;
}

const idleMs = 60_000;

export class IndexBuildThreads {
  readonly size: number;
  private readonly all = new Set<Worker>();
  private readonly idle = new Map<Worker, NodeJS.Timeout>();
  private readonly waiting: Waiting[] = [];
  private nextJob = 1;
  private closed = false;

  /** `size`: threads at most (default 2: one large build never holds up every other one). */
  constructor(size = 2) {
    this.size = Math.max(1, size);
  }

  /** The compact index of these records (built on a thread); rejects when the thread fails. */
  build(input: IndexBuildInput): Promise<CompactIndex> {
    if (this.closed) return Promise.reject(new Error('the index threads are closed'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      // Smallest first (stable for equal sizes).
      this.waiting.sort((a, b) => a.input.texts.length - b.input.texts.length);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.reject(new Error('the index threads are closed'));
    await Promise.all([...this.all].map((worker) => worker.terminate()));
  }

  private dispatch(): void {
    while (this.waiting.length > 0 && (this.idle.size > 0 || this.all.size < this.size)) {
      const next = this.waiting.shift() as Waiting;
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

  private spawn(): Worker {
    const worker = startWorker(import.meta.url, './index-build-worker');
    worker.unref();
    // A crash surfaces through 'exit'; the listener keeps it from becoming an uncaught error.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      this.all.delete(worker);
      clearTimeout(this.idle.get(worker));
      this.idle.delete(worker);
      if (!this.closed) this.dispatch();
    });
    this.all.add(worker);
    return worker;
  }

  private run(worker: Worker, waiting: Waiting): void {
    const job = this.nextJob++;
    let done = false;
    const finish = (reusable: boolean): boolean => {
      if (done) return false;
      done = true;
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      worker.unref();
      if (reusable && !this.closed) {
        const timeout = setTimeout(() => void worker.terminate(), idleMs);
        timeout.unref();
        this.idle.set(worker, timeout);
      }
      if (!this.closed) this.dispatch();
      return true;
    };
    const onMessage = (result: IndexBuildResult): void => {
      if (result.job !== job || !finish(true)) return;
      if (result.ok) waiting.resolve(result.compact);
      else waiting.reject(new Error(`index build failed: ${result.failure}`));
    };
    const onExit = (): void => {
      if (finish(false)) waiting.reject(new Error('the index thread ended unexpectedly'));
    };
    worker.on('message', onMessage);
    worker.once('exit', onExit);
    worker.ref();
    worker.postMessage({ job, ...waiting.input } satisfies IndexBuildJob);
  }
}
