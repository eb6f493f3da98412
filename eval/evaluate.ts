/** Runs every evaluation question through the index and the extractive answerer. */
import { performance } from 'node:perf_hooks';
import { answerExtractively } from '../src/knowledge/answering/extractive.js';
import { planAnswer } from '../src/knowledge/answering/plan.js';
import type { ExtractiveOptions } from '../src/knowledge/answering/plan-options.js';
import type { Answer, RetrievedRecord } from '../src/knowledge/answering/types.js';
import { type IndexOptions, KnowledgeIndex } from '../src/knowledge/retrieval/knowledge-index.js';
import type { Dataset, EvalRecord, QuestionKind } from './dataset.js';
import { auroc, containsAny, percentile, rate, round } from './metrics.js';

/** Records retrieved for each question (the query service retrieves 6; the answerer quotes from the first 5). */
export const RETRIEVE_K = 5;

export interface Config {
  index?: IndexOptions;
  answer?: ExtractiveOptions;
}

export interface Outcome {
  question: string;
  kind: QuestionKind;
  /** Rank (1-based) of the gold record in the top RETRIEVE_K, or null. */
  goldRank: number | null;
  coverage: number;
  topScore: number;
  answer: Answer;
  contains: boolean;
  citesGold: boolean;
  /** Wall and CPU time of search + answer. */
  ms: number;
  cpuMs: number;
}

export interface Summary {
  retrieval: { hitAt1: number; hitAt5: number };
  answers: { containsGold: number; citesGoldParagraph: number; containsGoldWhenGrounded: number };
  abstention: { unanswerableAbstained: number; answerableWronglyAbstained: number; offTopicAbstained: number };
  /** Answerable vs unanswerable; 0.5 = chance. */
  separability: { coverageAuroc: number; topScoreAuroc: number };
  /** Wall time includes whatever else the machine is doing; CPU time is this process's work. */
  timingMs: { p50: number; p95: number; cpuP50: number; cpuP95: number };
  counts: { records: number; answerable: number; unanswerable: number; offTopic: number };
}

function retrieve(index: KnowledgeIndex, byId: Map<string, EvalRecord>, query: string): RetrievedRecord[] {
  return index.search(query, RETRIEVE_K).map((h) => ({ ...(byId.get(h.recordId) as EvalRecord), score: h.score }));
}

export function runQuestions(data: Dataset, config: Config = {}): Outcome[] {
  const index = KnowledgeIndex.build(data.records, config.index);
  const byId = new Map(data.records.map((r) => [r.recordId, r]));
  const answerOptions: ExtractiveOptions = { stats: index, ...config.answer };
  const items = data.questions;
  // Warm up (JIT, segmenter, stemmer cache) so timings reflect steady state.
  for (const q of items.slice(0, 20)) answerExtractively(q.question, retrieve(index, byId, q.question), answerOptions);
  return items.map((q) => {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const retrieved = retrieve(index, byId, q.question);
    const answer = answerExtractively(q.question, retrieved, answerOptions);
    const cpu = process.cpuUsage(c0);
    const ms = performance.now() - t0;
    const rank = retrieved.findIndex((r) => r.recordId === q.gold);
    return {
      question: q.question,
      kind: q.kind,
      goldRank: rank < 0 ? null : rank + 1,
      coverage: planAnswer(q.question, retrieved, answerOptions).coverage,
      topScore: retrieved[0]?.score ?? 0,
      answer,
      contains: answer.grounded && containsAny(answer.answer, q.answers),
      citesGold: answer.sources.some((s) => s.recordId === q.gold),
      ms,
      cpuMs: (cpu.user + cpu.system) / 1000,
    };
  });
}

export function summarize(data: Dataset, outcomes: readonly Outcome[]): Summary {
  const answerable = outcomes.filter((o) => o.kind === 'answerable');
  const unanswerable = outcomes.filter((o) => o.kind === 'unanswerable');
  const offTopic = outcomes.filter((o) => o.kind === 'off-topic');
  const grounded = answerable.filter((o) => o.answer.grounded);
  const r = (x: number) => round(x);
  const wall = outcomes.map((o) => o.ms);
  const cpu = outcomes.map((o) => o.cpuMs);
  return {
    retrieval: {
      hitAt1: r(rate(answerable.map((o) => o.goldRank === 1))),
      hitAt5: r(rate(answerable.map((o) => o.goldRank !== null && o.goldRank <= 5))),
    },
    answers: {
      containsGold: r(rate(answerable.map((o) => o.contains))),
      citesGoldParagraph: r(rate(answerable.map((o) => o.citesGold))),
      containsGoldWhenGrounded: r(rate(grounded.map((o) => o.contains))),
    },
    abstention: {
      unanswerableAbstained: r(rate(unanswerable.map((o) => !o.answer.grounded))),
      answerableWronglyAbstained: r(rate(answerable.map((o) => !o.answer.grounded))),
      offTopicAbstained: r(rate(offTopic.map((o) => !o.answer.grounded))),
    },
    separability: {
      coverageAuroc: r(
        auroc(
          answerable.map((o) => o.coverage),
          unanswerable.map((o) => o.coverage),
        ),
      ),
      topScoreAuroc: r(
        auroc(
          answerable.map((o) => o.topScore),
          unanswerable.map((o) => o.topScore),
        ),
      ),
    },
    timingMs: {
      p50: round(percentile(wall, 50)),
      p95: round(percentile(wall, 95)),
      cpuP50: round(percentile(cpu, 50)),
      cpuP95: round(percentile(cpu, 95)),
    },
    counts: {
      records: data.records.length,
      answerable: answerable.length,
      unanswerable: unanswerable.length,
      offTopic: offTopic.length,
    },
  };
}
