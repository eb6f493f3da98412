/**
 * The index thread (index-build-threads.ts): builds a knowledge base's BM25F index from its
 * records' titles and texts and sends it back compact (typed arrays, transferred, not copied),
 * then, when asked, the index's stored form (index-snapshot.ts) in a second message.
 */
import { parentPort } from 'node:worker_threads';
import { type CompactIndex, transferables } from '../retrieval/compact-index.js';
import { encodeIndexSnapshot } from '../retrieval/index-snapshot.js';
import { KnowledgeIndex } from '../retrieval/knowledge-index.js';

/** What a stored form needs of the records beyond their titles and texts, in the same order. */
export interface SnapshotExtras {
  ids: string[];
  sources: string[];
  kinds: (string | undefined)[];
}

export type IndexThreadJob = { job: number; kind: 'build'; titles: (string | null)[]; texts: string[]; snapshot?: SnapshotExtras | undefined };

/** Replies to a job; `last: false` when another reply to it follows (a build's stored form). */
export type IndexThreadReply = { job: number; last: boolean } & (
  | { ok: true; compact: CompactIndex }
  | { ok: true; snapshot: Uint8Array<ArrayBuffer> }
  | { ok: false; failure: string }
);

function failure(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function build(message: IndexThreadJob): void {
  const { job, titles, texts, snapshot } = message;
  // The ids only need to be distinct here: the receiver pairs the index with its own records by order.
  const records = texts.map((text, i) => ({ recordId: String(i), title: titles[i] ?? null, text, sourceName: '' }));
  const index = KnowledgeIndex.build(records);
  const compact = index.toCompact();
  // The stored form is made from copies: the compact index's buffers leave with the first reply.
  const kept = snapshot ? structuredClone(compact) : undefined;
  parentPort?.postMessage({ job, last: !snapshot, ok: true, compact } satisfies IndexThreadReply, transferables(compact));
  if (!snapshot || !kept) return;
  let reply: IndexThreadReply;
  try {
    const bytes = encodeIndexSnapshot(kept, { ids: snapshot.ids, titles, texts, sources: snapshot.sources, kinds: snapshot.kinds });
    reply = { job, last: true, ok: true, snapshot: bytes };
  } catch (error) {
    reply = { job, last: true, ok: false, failure: failure(error) };
  }
  parentPort?.postMessage(reply, reply.ok && 'snapshot' in reply ? [reply.snapshot.buffer] : []);
}

parentPort?.on('message', (message: IndexThreadJob) => {
  try {
    build(message);
  } catch (error) {
    parentPort?.postMessage({ job: message.job, last: true, ok: false, failure: failure(error) } satisfies IndexThreadReply);
  }
});
