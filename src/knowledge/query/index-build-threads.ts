/**
 * Worker threads that build cold BM25F indexes (a knowledge base's first query after start-up or
 * eviction, or a change too large to apply record by record), so that building never runs on the
 * HTTP thread: while a large knowledge base's index builds, queries to every other knowledge base
 * go on. A small fixed number of threads, started on first use, unref'd while idle and ended after
 * a minute of idleness. Waiting builds are taken smallest first, so a small knowledge base's cold
 * query does not wait behind a large one's build when both wait for a thread. The same threads
 * make and unpack an index's stored form (index-snapshot.ts).
 */
import type { Worker } from 'node:worker_threads';
import type { CompactIndex } from '../retrieval/compact-index.js';
import type { PackedSnapshot } from '../retrieval/index-snapshot.js';
import { startWorker } from '../../worker-threads.js';
import type { IndexThreadJob, IndexThreadReply, SnapshotExtras } from './index-build-worker.js';

export interface IndexBuildInput {
  titles: (string | null)[];
  texts: string[];
}

type JobBody = IndexThreadJob extends infer J ? (J extends { job: number } ? Omit<J, 'job'> : never) : never;
type Reply = IndexThreadReply & { ok: true };

interface Waiting {
  body: JobBody;
  /** Orders the queue: smallest first. */
  size: number;
  /** Called with every successful reply (`last` says whether more follow). */
  reply(reply: Reply): void;
  /** Called once when the job fails before its last reply. */
  fail(error: Error): void;
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
  async build(input: IndexBuildInput): Promise<CompactIndex> {
    return (await this.buildWithSnapshot(input)).compact;
  }

  /**
   * As `build`; with `extras`, `snapshot` is the index's stored form, made by the same thread after
   * it sent the index (it settles later, and rejects rather than fail the build).
   */
  buildWithSnapshot(input: IndexBuildInput, extras?: SnapshotExtras): Promise<{ compact: CompactIndex; snapshot: Promise<Uint8Array<ArrayBuffer>> | undefined }> {
    return new Promise((resolve, reject) => {
      let snapshot: { resolve(bytes: Uint8Array<ArrayBuffer>): void; reject(error: Error): void } | undefined;
      const stored = extras
        ? new Promise<Uint8Array<ArrayBuffer>>((resolveStored, rejectStored) => {
            snapshot = { resolve: resolveStored, reject: rejectStored };
          })
        : undefined;
      // Nobody may be waiting for it yet: a failure to make it is not an unhandled rejection.
      stored?.catch(() => undefined);
      let built = false;
      this.submit({
        body: { kind: 'build', ...input, snapshot: extras },
        size: input.texts.length,
        reply: (reply) => {
          if ('compact' in reply) {
            built = true;
            resolve({ compact: reply.compact, snapshot: stored });
          } else if ('snapshot' in reply) snapshot?.resolve(reply.snapshot);
        },
        fail: (error) => (built ? snapshot?.reject(error) : (reject(error), snapshot?.reject(error))),
      });
    });
  }

  /** A stored index form unpacked and checked on a thread; rejects when it is damaged or of other code (see index-snapshot.ts). */
  unpack(data: Uint8Array): Promise<PackedSnapshot> {
    return new Promise((resolve, reject) => {
      this.submit({
        body: { kind: 'unpack', data },
        // About what building a record costs, per 20 bytes of stored form.
        size: data.length / 20,
        reply: (reply) => ('packed' in reply ? resolve(reply.packed) : reject(new Error('unexpected index thread reply'))),
        fail: reject,
      });
    });
  }

  private submit(waiting: Waiting): void {
    if (this.closed) return waiting.fail(new Error('the index threads are closed'));
    this.waiting.push(waiting);
    // Smallest first (stable for equal sizes).
    this.waiting.sort((a, b) => a.size - b.size);
    this.dispatch();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.fail(new Error('the index threads are closed'));
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
    const onMessage = (result: IndexThreadReply): void => {
      if (result.job !== job) return;
      if (result.last && !finish(true)) return;
      if (result.ok) waiting.reply(result);
      else waiting.fail(new Error(`index thread job failed: ${result.failure}`));
    };
    const onExit = (): void => {
      if (finish(false)) waiting.fail(new Error('the index thread ended unexpectedly'));
    };
    worker.on('message', onMessage);
    worker.once('exit', onExit);
    worker.ref();
    const message = { job, ...waiting.body } as IndexThreadJob;
    // A stored form that owns its whole buffer is handed over, not copied (the caller does not read
    // it again); one that shares a buffer (Node's pool of small Buffers) is copied.
    const owned = message.kind === 'unpack' && message.data.byteOffset === 0 && message.data.byteLength === message.data.buffer.byteLength && message.data.buffer instanceof ArrayBuffer;
    worker.postMessage(message, owned ? [message.data.buffer as ArrayBuffer] : []);
  }
}
