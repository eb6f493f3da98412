/**
 * The index-building thread (index-build-threads.ts): builds a knowledge base's BM25F index from
 * its records' titles and texts and sends it back compact (typed arrays, transferred, not copied).
 */
import { parentPort } from 'node:worker_threads';
import { type CompactIndex, transferables } from '../retrieval/compact-index.js';
import { KnowledgeIndex } from '../retrieval/knowledge-index.js';

export interface IndexBuildJob {
  job: number;
  titles: (string | null)[];
  texts: string[];
}

export type IndexBuildResult = { job: number; ok: true; compact: CompactIndex } | { job: number; ok: false; failure: string };

function build({ titles, texts }: IndexBuildJob): CompactIndex {
  // The ids only need to be distinct here: the receiver pairs the index with its own records by order.
  const records = texts.map((text, i) => ({ recordId: String(i), title: titles[i] ?? null, text, sourceName: '' }));
  return KnowledgeIndex.build(records).toCompact();
}

parentPort?.on('message', (message: IndexBuildJob) => {
  let result: IndexBuildResult;
  try {
    result = { job: message.job, ok: true, compact: build(message) };
  } catch (error) {
    result = { job: message.job, ok: false, failure: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
  parentPort?.postMessage(result, result.ok ? transferables(result.compact) : []);
});
