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

/**
 * A build's records sent in parts (issue 14, head of line: 100,000 records copied into one
 * message held the HTTP thread ~30–180 ms): each part's records are appended to the job's, and the
 * `build` message that follows brings the last ones.
 */
export type IndexThreadPart = { job: number; kind: 'part'; titles: (string | null)[]; texts: string[]; snapshot?: SnapshotExtras | undefined };

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

/** The records received so far for jobs whose `build` message has not come yet. */
const parts = new Map<number, IndexThreadPart>();

/** `into` with `more` appended, list by list. */
function append(into: IndexThreadPart, more: Omit<IndexThreadPart, 'job' | 'kind'>): void {
  for (const value of more.titles) into.titles.push(value);
  for (const value of more.texts) into.texts.push(value);
  if (more.snapshot) {
    into.snapshot ??= { ids: [], sources: [], kinds: [] };
    for (const value of more.snapshot.ids) into.snapshot.ids.push(value);
    for (const value of more.snapshot.sources) into.snapshot.sources.push(value);
    for (const value of more.snapshot.kinds) into.snapshot.kinds.push(value);
  }
}

parentPort?.on('message', (message: IndexThreadJob | IndexThreadPart) => {
  if (message.kind === 'part') {
    const held = parts.get(message.job);
    if (held) append(held, message);
    else parts.set(message.job, message);
    return;
  }
  const held = parts.get(message.job);
  parts.delete(message.job);
  try {
    if (held) append(held, message);
    build(held ? { ...held, kind: 'build', snapshot: message.snapshot && held.snapshot } : message);
  } catch (error) {
    parentPort?.postMessage({ job: message.job, last: true, ok: false, failure: failure(error) } satisfies IndexThreadReply);
  }
});
