/**
 * Worker threads that build cold BM25F indexes (a knowledge base's first query after start-up or
 * eviction without a usable snapshot, or a change too large to apply record by record), so that
 * building never runs on the HTTP thread: while a large knowledge base's index builds, queries to
 * every other knowledge base go on. A small fixed number of threads (../../worker-pool.ts),
 * started on first use, unref'd while idle and ended after a minute of idleness. Waiting builds
 * are taken smallest first, so a small knowledge base's cold query does not wait behind a large
 * one's build when both wait for a thread. The same threads make an index's stored form
 * (index-snapshot.ts); loading one needs no thread.
 */
import type { CompactIndex } from '../retrieval/compact-index.js';
import { type JobHandlers, type PoolJob, WorkerPool, type WorkerQueue } from '../../worker-pool.js';
import { nextTurn } from '../../time-slices.js';
import type { IndexThreadJob, IndexThreadPart, IndexThreadReply, SnapshotExtras } from './index-build-worker.js';

export interface IndexBuildInput {
  titles: (string | null)[];
  texts: string[];
}

type JobBody = Omit<IndexThreadJob, 'job'>;
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

/** Waiting builds, smallest first (stable for equal sizes). */
class SmallestFirst implements WorkerQueue<Waiting> {
  private readonly items: Waiting[] = [];

  get length(): number {
    return this.items.length;
  }

  push(item: Waiting): void {
    let at = this.items.length;
    while (at > 0 && (this.items[at - 1] as Waiting).size > item.size) at--;
    this.items.splice(at, 0, item);
  }

  take(): Waiting | undefined {
    return this.items.shift();
  }

  drain(): Waiting[] {
    return this.items.splice(0);
  }
}

export class IndexBuildThreads {
  readonly size: number;
  private readonly queue = new SmallestFirst();
  private readonly pool: WorkerPool<Waiting, IndexThreadReply>;

  /** `size`: threads at most (default 2: one large build never holds up every other one). */
  constructor(size = 2) {
    this.pool = new WorkerPool({ callerUrl: import.meta.url, entry: './index-build-worker', size, queue: this.queue, start: (job, waiting) => run(job, waiting) });
    this.size = this.pool.size;
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

  private submit(waiting: Waiting): void {
    if (this.pool.closed) return waiting.fail(new Error('the index threads are closed'));
    this.queue.push(waiting);
    this.pool.dispatch();
  }

  async close(): Promise<void> {
    for (const waiting of await this.pool.close()) waiting.fail(new Error('the index threads are closed'));
  }
}

/** Records per message to a thread (~1–2 ms to copy on the HTTP thread); the thread appends them (index-build-worker.ts). */
const RECORDS_PER_MESSAGE = 2000;

/** Sends a job's records in parts, letting other work run between them, then the `build` message with the last part. */
async function sendInParts(job: PoolJob, body: JobBody): Promise<void> {
  const count = body.texts.length;
  const slice = (from: number, to: number) => ({
    titles: body.titles.slice(from, to),
    texts: body.texts.slice(from, to),
    ...(body.snapshot ? { snapshot: { ids: body.snapshot.ids.slice(from, to), sources: body.snapshot.sources.slice(from, to), kinds: body.snapshot.kinds.slice(from, to) } } : {}),
  });
  let from = 0;
  for (; count - from > RECORDS_PER_MESSAGE; from += RECORDS_PER_MESSAGE) {
    job.send({ kind: 'part', ...slice(from, from + RECORDS_PER_MESSAGE) } satisfies Omit<IndexThreadPart, 'job'>);
    await nextTurn();
  }
  job.send({ kind: 'build', ...slice(from, count) } satisfies Omit<IndexThreadJob, 'job'>);
}

function run(job: PoolJob, waiting: Waiting): JobHandlers<IndexThreadReply> {
  // A small build goes in one message; a large one in parts. Should the thread end meanwhile, the
  // job fails through `onExit` and what is left unsent does not matter.
  if (waiting.body.texts.length <= RECORDS_PER_MESSAGE) job.send(waiting.body);
  else sendInParts(job, waiting.body).catch(() => undefined);
  return {
    onReply: (reply) => {
      if (reply.last && !job.finish(true)) return;
      if (reply.ok) waiting.reply(reply);
      else waiting.fail(new Error(`index thread job failed: ${reply.failure}`));
    },
    onExit: () => waiting.fail(new Error('the index thread ended unexpectedly')),
  };
}
