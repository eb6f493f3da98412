/**
 * Build and search costs of the index at free-tier size (25 records) and at 5,000 records.
 * Measured as CPU time (process.cpuUsage) per operation over batches: wall time on a shared
 * machine mostly measures the neighbours.
 */
import { KnowledgeIndex } from '../src/knowledge/retrieval/knowledge-index.js';
import type { EvalRecord } from './dataset.js';
import { percentile } from './metrics.js';

export interface Performance {
  /** CPU milliseconds per build / microseconds per search, median of batches. */
  build25Ms: number;
  /** 25 records shaped like a FAQ: a question as title and a ~200-character answer. */
  build25FaqMs: number;
  build5000Ms: number;
  search25Us: number;
  search5000Us: number;
}

const QUERIES = ['Who was the Norman leader?', 'When did the Normans conquer England?', 'What religion were the Normans?', 'castle architecture'];

/** CPU time of one call of `fn`, in ms: median over `batches` batches of `perBatch` calls. */
export function cpuMs(fn: () => void, batches: number, perBatch: number): number {
  const times: number[] = [];
  for (let b = 0; b < batches; b++) {
    const start = process.cpuUsage();
    for (let i = 0; i < perBatch; i++) fn();
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000 / perBatch);
  }
  return percentile(times, 50);
}

/**
 * `n` records made by cycling the paragraphs' sentences, so vocabulary and lengths stay realistic;
 * `numbered` ends each with its number, so no two are the same text (a store would drop duplicates).
 */
export function synthetic(records: readonly EvalRecord[], n: number, numbered = false): EvalRecord[] {
  const sentences = records.flatMap((r) => r.text.split(/(?<=\.)\s+/));
  return Array.from({ length: n }, (_, i) => ({
    recordId: `s${i}`,
    sourceName: 'synthetic.txt',
    title: i % 3 === 0 ? `Section ${i}` : null,
    kind: 'passage' as const,
    text: `${[0, 1, 2, 3].map((j) => sentences[(i * 7 + j * 13) % sentences.length]).join(' ')}${numbered ? ` (${i})` : ''}`,
  }));
}

export function measurePerformance(records: readonly EvalRecord[]): Performance {
  const small = records.slice(0, 25);
  const faq = small.map((r, i) => ({ ...r, kind: 'qa' as const, title: `How do I change setting ${i}?`, text: r.text.slice(0, 200) }));
  const large = synthetic(records, 5000);
  for (let i = 0; i < 50; i++) KnowledgeIndex.build(small);
  const build25Ms = cpuMs(() => KnowledgeIndex.build(small), 9, 50);
  const build25FaqMs = cpuMs(() => KnowledgeIndex.build(faq), 9, 50);
  const build5000Ms = cpuMs(() => KnowledgeIndex.build(large), 3, 1);
  const smallIndex = KnowledgeIndex.build(small);
  const largeIndex = KnowledgeIndex.build(large);
  let q = 0;
  const search25Us = cpuMs(() => smallIndex.search(QUERIES[q++ % QUERIES.length] as string, 10), 9, 2000) * 1000;
  const search5000Us = cpuMs(() => largeIndex.search(QUERIES[q++ % QUERIES.length] as string, 10), 9, 100) * 1000;
  return { build25Ms, build25FaqMs, build5000Ms, search25Us, search5000Us };
}
