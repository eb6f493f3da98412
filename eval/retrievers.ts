/**
 * `DATABASE_URL=postgres://… npx tsx eval/retrievers.ts`: the retrieval backends side by side on
 * the same data, through the retrieval port as the query service calls it. Every data set (SQuAD 2.0
 * Normans with the off-topic questions, the shop FAQ, the five visitor sets) is written into a
 * temporary PostgreSQL schema through the store, one knowledge base each; then every question is
 * searched by the in-memory registry (RETRIEVAL_BACKEND=memory, reading those records) and by the
 * PostgreSQL full-text retriever (=postgres), and answered by the extractive answerer with that
 * backend's statistics. Also times the searches, on the data sets and on 5,000 records.
 *
 * Options: `--half tune|report|all` (visitor sets; report by default, as eval/run.ts),
 * `--normalization N` (ts_rank_cd flags of the PostgreSQL retriever), `--common-share X` (its
 * common-term cut-off, 1 = off). Writes
 * eval/results/retrievers.json. The schema is dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { PostgresFtsRetriever } from '../src/adapters/retrieval/postgres-fts.js';
import { PostgresStore } from '../src/adapters/storage/postgres/dialect.js';
import { answerExtractively } from '../src/knowledge/answering/extractive.js';
import { contextualQuery } from '../src/knowledge/answering/follow-up.js';
import type { Answer } from '../src/knowledge/answering/types.js';
import { fingerprint } from '../src/knowledge/fingerprint.js';
import type { KnowledgeBase } from '../src/knowledge/model.js';
import { IndexRegistry } from '../src/knowledge/query/index-registry.js';
import { KnowledgeIndex } from '../src/knowledge/retrieval/knowledge-index.js';
import type { Retriever } from '../src/knowledge/retrieval/port.js';
import { type EvalRecord, loadFaq, loadSquad, repoRoot } from './dataset.js';
import { containsAny, percentile, rate, round } from './metrics.js';
import { loadSet, setNames, type Turn } from './sets.js';
import { synthetic } from './perf.js';

interface Case {
  question: string;
  /** What is searched: the question in the context of its conversation. */
  searched: string;
  conversation?: Turn[];
  kind: 'answerable' | 'unanswerable' | 'off-topic';
  gold: ReadonlySet<string>;
  /** Whether a grounded answer is right (gold span / every gold fact). */
  right(answer: Answer): boolean;
}

interface DataSet {
  name: string;
  records: EvalRecord[];
  cases: Case[];
  /** Records handed to the answerer: 5 for SQuAD and the FAQ (eval/run.ts), 6 for visitor sets (the query service). */
  k: number;
}

const collapse = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

function dataSets(half: string): DataSet[] {
  const out: DataSet[] = [];
  for (const data of [loadSquad(), loadFaq()]) {
    out.push({
      name: data.name,
      records: data.records,
      k: 5,
      cases: data.questions.map((q) => ({
        question: q.question,
        searched: q.question,
        kind: q.kind,
        gold: new Set(q.gold ? [q.gold] : []),
        right: (a) => containsAny(a.answer, q.answers),
      })),
    });
  }
  for (const name of setNames()) {
    const set = loadSet(name);
    out.push({
      name,
      records: set.records,
      k: 6,
      cases: set.questions
        .filter((q) => half === 'all' || q.half === half)
        .map((q) => ({
          question: q.question,
          searched: contextualQuery(q.question, q.conversation),
          ...(q.conversation ? { conversation: q.conversation } : {}),
          kind: q.type === 'unanswerable' ? 'unanswerable' : 'answerable',
          gold: new Set(set.goldIds.get(q.id) ?? []),
          right: (a) => {
            const text = collapse(a.answer.replace(/\s*\[\d+\]/g, ''));
            return q.facts.every((alts) => alts.some((alt) => text.includes(collapse(alt))));
          },
        })),
    });
  }
  return out;
}

interface Row {
  hitAt1: number;
  hitAt5: number;
  right: number;
  wronglyRefused: number;
  refusedUnanswerable: number;
  refusedOffTopic: number | null;
  searchWallMs: { p50: number; p95: number };
  searchCpuMs: { p50: number; p95: number };
}

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function evaluate(retriever: Retriever, kb: KnowledgeBase, data: DataSet, toEval: Map<string, string>): Promise<{ row: Row; rankings: string[][] }> {
  // Warm-up: the vocabulary / index is built and the JIT settles before anything is timed.
  for (const c of data.cases.slice(0, 20)) await retriever.search(kb, c.searched, data.k);
  const wall: number[] = [];
  const cpu: number[] = [];
  const rankings: string[][] = [];
  const outcomes: { c: Case; rank: number; answer: Answer }[] = [];
  for (const c of data.cases) {
    const t0 = performance.now();
    const c0 = cpuNow();
    const { hits, stats } = await retriever.search(kb, c.searched, data.k);
    cpu.push(cpuNow() - c0);
    wall.push(performance.now() - t0);
    const retrieved = hits.map((h) => ({ ...h, recordId: toEval.get(h.recordId) ?? h.recordId }));
    rankings.push(retrieved.map((h) => h.recordId));
    const answer = answerExtractively(c.question, retrieved, { stats, ...(c.conversation ? { conversation: c.conversation } : {}) });
    outcomes.push({ c, rank: retrieved.findIndex((h) => c.gold.has(h.recordId)), answer });
  }
  const answerable = outcomes.filter((o) => o.c.kind === 'answerable');
  const unanswerable = outcomes.filter((o) => o.c.kind === 'unanswerable');
  const offTopic = outcomes.filter((o) => o.c.kind === 'off-topic');
  return {
    rankings,
    row: {
      hitAt1: round(rate(answerable.map((o) => o.rank === 0))),
      hitAt5: round(rate(answerable.map((o) => o.rank >= 0 && o.rank < 5))),
      right: round(rate(answerable.map((o) => o.answer.grounded && o.c.right(o.answer)))),
      wronglyRefused: round(rate(answerable.map((o) => !o.answer.grounded))),
      refusedUnanswerable: round(rate(unanswerable.map((o) => !o.answer.grounded))),
      refusedOffTopic: offTopic.length === 0 ? null : round(rate(offTopic.map((o) => !o.answer.grounded))),
      searchWallMs: { p50: round(percentile(wall, 50)), p95: round(percentile(wall, 95)) },
      searchCpuMs: { p50: round(percentile(cpu, 50)), p95: round(percentile(cpu, 95)) },
    },
  };
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) {
    console.error('Set DATABASE_URL=postgres://… (a database where a temporary schema may be created).');
    process.exit(2);
  }
  const half = arg('--half') ?? 'report';
  const normalization = arg('--normalization');
  const commonShare = arg('--common-share');
  const schema = `gw_eval_${randomBytes(6).toString('hex')}`;
  const store = new PostgresStore({ connectionString, schema, max: 4 });
  const memory = new IndexRegistry(store.knowledge);
  const postgres = new PostgresFtsRetriever({ connectionString, schema, max: 4, ...(normalization ? { normalization: Number(normalization) } : {}), ...(commonShare ? { commonShare: Number(commonShare) } : {}) });
  try {
    await store.migrate();
    await postgres.start();
    const owner = (await store.accounts.accountForEmail(`eval-${schema}@example.test`, `acc_${schema}`)).accountId;

    /** Writes the records in order, one source per run of records with the same source name. */
    async function load(name: string, records: readonly EvalRecord[]): Promise<{ kb: KnowledgeBase; toEval: Map<string, string>; stored: number }> {
      const created = await store.knowledge.createKnowledgeBase({ ragId: `kb_${randomBytes(8).toString('hex')}`, ownerId: owner, botName: name, description: null, greeting: null, theme: {} }, 1000);
      if (created.kind !== 'created') throw new Error('knowledge base not created');
      let kb = created.knowledgeBase;
      const toEval = new Map<string, string>();
      let stored = 0;
      for (let i = 0; i < records.length; ) {
        let j = i;
        while (j < records.length && records[j]?.sourceName === records[i]?.sourceName) j++;
        const group = records.slice(i, j);
        const candidates = group.map((r) => {
          const recordId = `rec_${randomBytes(8).toString('hex')}`;
          toEval.set(recordId, r.recordId);
          return { recordId, kind: r.kind, title: r.title, text: r.text, fingerprint: fingerprint(`${r.title ?? ''}\n${r.text}`) };
        });
        const source = { sourceId: `src_${randomBytes(8).toString('hex')}`, sourceName: group[0]?.sourceName ?? 'x', format: 'txt' as const, byteSize: 1, sha256: 'a'.repeat(64), rejectedCount: 0 };
        const result = await store.knowledge.commitSource(owner, kb.ragId, source, candidates, 100_000);
        if (result.kind !== 'committed') throw new Error(`records not stored: ${result.kind}`);
        kb = result.knowledgeBase;
        stored += candidates.length - result.duplicateFingerprints.length;
        i = j;
      }
      return { kb, toEval, stored };
    }

    const results: Record<string, { records: number; questions: number; memory: Row; postgres: Row; sameRankingAsReference: boolean }> = {};
    for (const data of dataSets(half)) {
      const { kb, toEval, stored } = await load(data.name, data.records);
      const mem = await evaluate(memory, kb, data, toEval);
      const pgr = await evaluate(postgres, kb, data, toEval);
      // The registry must rank exactly as the index built straight from the data set (eval/run.ts).
      const reference = KnowledgeIndex.build(data.records);
      const same = data.cases.every((c, i) => JSON.stringify(reference.search(c.searched, data.k).map((h) => h.recordId)) === JSON.stringify(mem.rankings[i]));
      results[data.name] = { records: stored, questions: data.cases.length, memory: mem.row, postgres: pgr.row, sameRankingAsReference: same };
    }

    const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);
    const ms = (x: { p50: number; p95: number }) => `${x.p50.toFixed(2)} / ${x.p95.toFixed(2)}`;
    console.log(`Retrieval backends (visitor sets: ${half} half${normalization ? `, ts_rank_cd normalization ${normalization}` : ''}${commonShare ? `, common share ${commonShare}` : ''})`);
    console.log('data set | records | questions | backend | hit@1 | hit@5 | right answer | wrongly refused | refused unanswerable | refused off-topic | search wall p50/p95 ms | search CPU p50/p95 ms');
    for (const [name, r] of Object.entries(results)) {
      for (const backend of ['memory', 'postgres'] as const) {
        const row = r[backend];
        console.log(
          [name, r.records, r.questions, backend, pct(row.hitAt1), pct(row.hitAt5), pct(row.right), pct(row.wronglyRefused), pct(row.refusedUnanswerable), pct(row.refusedOffTopic), ms(row.searchWallMs), ms(row.searchCpuMs)].join(' | '),
        );
      }
      if (!r.sameRankingAsReference) console.log(`  !! ${name}: the registry's ranking differs from KnowledgeIndex.build`);
    }

    // Latency at 5,000 records: the Normans' questions against synthetic records.
    const squad = loadSquad();
    const large = synthetic(squad.records, 5000, true);
    const { kb: largeKb, toEval: largeIds, stored: largeStored } = await load('synthetic 5000', large);
    // Statistics for the planner, as autovacuum would gather them after a large upload.
    const admin = new pg.Client({ connectionString, options: `-c search_path="${schema}"` });
    await admin.connect();
    await admin.query('ANALYZE records').finally(() => admin.end());
    const largeSet: DataSet = { name: 'synthetic', records: large, k: 5, cases: squad.questions.map((q) => ({ question: q.question, searched: q.question, kind: 'off-topic', gold: new Set(), right: () => false })) };
    const t0 = performance.now();
    await memory.search(largeKb, 'warm', 1);
    const memoryBuildMs = performance.now() - t0;
    const t1 = performance.now();
    await postgres.search(largeKb, 'warm', 1);
    const postgresVocabularyMs = performance.now() - t1;
    const largeRows = { memory: (await evaluate(memory, largeKb, largeSet, largeIds)).row, postgres: (await evaluate(postgres, largeKb, largeSet, largeIds)).row };
    console.log(`\n${largeStored} records: first search (index build / vocabulary read) memory ${memoryBuildMs.toFixed(0)} ms, postgres ${postgresVocabularyMs.toFixed(0)} ms`);
    for (const backend of ['memory', 'postgres'] as const) {
      console.log(`  ${backend}: search wall p50/p95 ${ms(largeRows[backend].searchWallMs)} ms, CPU p50/p95 ${ms(largeRows[backend].searchCpuMs)} ms`);
    }

    const dir = path.join(repoRoot, 'eval', 'results');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'retrievers.json');
    const large5000 = { records: largeStored, firstSearchMs: { memory: round(memoryBuildMs), postgres: round(postgresVocabularyMs) }, ...largeRows };
    writeFileSync(file, `${JSON.stringify({ generatedAt: new Date().toISOString(), half, normalization: normalization ?? null, commonShare: commonShare ?? null, results, large5000 }, null, 2)}\n`);
    console.log(`\nWrote ${path.relative(repoRoot, file)}`);
  } finally {
    await postgres.close();
    await memory.close();
    await store.close();
    const client = new pg.Client({ connectionString });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => client.end());
  }
}

await main();
