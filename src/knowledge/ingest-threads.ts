/**
 * Worker threads that prepare uploads (prepare-upload.ts) so that extraction and hashing never
 * run on the HTTP thread. A small fixed number of threads, started on first use; waiting uploads
 * queue in order, up to `maxQueue` (then 503 server_busy). A preparation that passes `timeoutMs`
 * ends its thread (the only way to stop synchronous work) and is refused with
 * time_limit_exceeded. Idle threads are unref'd, so they never keep the process alive, and end
 * after a minute of idleness.
 */
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { DomainError } from '../errors.js';
import { startWorker } from '../worker-threads.js';
import type { IngestJob, IngestResult } from './ingest-worker.js';
import type { PreparedUpload, PrepareInput } from './prepare-upload.js';

export interface IngestThreadOptions {
  /** Threads at most. Default: one per core beyond the HTTP thread's, at most 2. */
  size?: number;
  /** Uploads waiting for a thread at most. */
  maxQueue?: number;
  /** Time one preparation may take, in milliseconds. */
  timeoutMs?: number;
}

interface Waiting {
  input: PrepareInput;
  resolve(prepared: PreparedUpload): void;
  reject(error: Error): void;
}

const idleMs = 60_000;

export class IngestThreads {
  private readonly size: number;
  private readonly maxQueue: number;
  private readonly timeoutMs: number;
  private readonly all = new Set<Worker>();
  private readonly idle = new Map<Worker, NodeJS.Timeout>();
  private readonly queue: Waiting[] = [];
  private nextJob = 1;
  private closed = false;

  constructor(options: IngestThreadOptions = {}) {
    this.size = Math.max(1, options.size ?? Math.min(2, os.availableParallelism() - 1));
    this.maxQueue = Math.max(0, options.maxQueue ?? 16);
    this.timeoutMs = options.timeoutMs ?? 60_000;
  }

  /** Prepares an upload on a thread; throws the DomainError the preparation met, if any. */
  prepare(input: PrepareInput): Promise<PreparedUpload> {
    if (this.closed) return Promise.reject(new Error('the ingestion threads are closed'));
    if (this.queue.length >= this.maxQueue && !this.hasFreeThread()) {
      return Promise.reject(new DomainError('server_busy', 'Too many uploads are being read right now. Try again in a moment.', { retryAfterMs: 5000 }));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiting of this.queue.splice(0)) waiting.reject(new Error('the ingestion threads are closed'));
    await Promise.all([...this.all].map((worker) => worker.terminate()));
  }

  private hasFreeThread(): boolean {
    return this.idle.size > 0 || this.all.size < this.size;
  }

  private dispatch(): void {
    while (this.queue.length > 0 && this.hasFreeThread()) {
      const [idle] = this.idle;
      let worker: Worker;
      if (idle) {
        clearTimeout(idle[1]);
        this.idle.delete(idle[0]);
        worker = idle[0];
      } else worker = this.spawn();
      this.run(worker, this.queue.shift() as Waiting);
    }
  }

  private spawn(): Worker {
    const worker = startWorker(import.meta.url, './ingest-worker');
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
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      worker.unref();
      if (reusable && !this.closed) {
        const timeout = setTimeout(() => void worker.terminate(), idleMs);
        timeout.unref();
        this.idle.set(worker, timeout);
        this.dispatch();
      }
      return true;
    };
    const onMessage = (result: IngestResult): void => {
      if (result.job !== job || !finish(true)) return;
      if (result.ok) waiting.resolve(result.prepared);
      else if ('error' in result) waiting.reject(new DomainError(result.error.code, result.error.detail, result.error.extra));
      else waiting.reject(new Error(`upload preparation failed: ${result.failure}`));
    };
    const onExit = (): void => {
      if (finish(false)) waiting.reject(new Error('the ingestion thread ended unexpectedly'));
    };
    const timer = setTimeout(() => {
      if (!finish(false)) return;
      void worker.terminate();
      waiting.reject(
        new DomainError('time_limit_exceeded', `Reading the upload took longer than ${this.timeoutMs} ms and was stopped. Nothing was stored.`, { limitMs: this.timeoutMs }),
      );
    }, this.timeoutMs);
    worker.on('message', onMessage);
    worker.once('exit', onExit);
    worker.ref();
    worker.postMessage({ job, ...waiting.input } satisfies IngestJob);
  }
}
