/**
 * `npx tsx eval/calibrate.ts`: fits the answerer's answer-or-refuse model (confidence.ts
 * CONFIDENCE_MODEL) on the tuning half of the visitor-question sets, and sweeps its threshold
 * (`minConfidence`) on the same half. The reporting half is never read here.
 *
 * Each tuning question gives one example: its features (coverage of the best unit, best
 * retrieval score in rare-word units) when the answerer may answer anything, and whether that
 * answer would be correct and complete (1) or not (0: wrong, incomplete, or a near-topic
 * question that must be refused). The model is an L2-regularised logistic regression.
 */
import { contextualQuery } from '../src/knowledge/answering/follow-up.js';
import { type ConfidenceModel, matchedRareWords } from '../src/knowledge/answering/confidence.js';
import { planAnswer } from '../src/knowledge/answering/plan.js';
import { KnowledgeIndex } from '../src/knowledge/retrieval/knowledge-index.js';
import { loadSet, tuningSetNames } from './sets.js';
import { runVisitorSet, summarizeVisitor } from './visitor.js';

export interface Example {
  x: [number, number];
  y: 0 | 1;
}

/** One example per tuning-half question of every visitor set but the held-out ones. */
export function calibrationExamples(): Example[] {
  const out: Example[] = [];
  for (const name of tuningSetNames()) {
    const set = loadSet(name);
    const index = KnowledgeIndex.build(set.records);
    const byId = new Map(set.records.map((r) => [r.recordId, r]));
    const outcomes = runVisitorSet(set, { minConfidence: 0, minCoverage: 0 });
    for (const o of outcomes) {
      if (o.question.half !== 'tune') continue;
      const searched = contextualQuery(o.question.question, o.question.conversation);
      const hits = index.search(searched, 6);
      const retrieved = hits.map((h) => ({ ...(byId.get(h.recordId) as (typeof set.records)[number]), score: h.score }));
      const plan = planAnswer(searched, retrieved, { stats: index, minConfidence: 0, minCoverage: 0 });
      out.push({ x: [plan.coverage, matchedRareWords((hits[0]?.score ?? 0) * (plan.scoreShare ?? 1), index.size)], y: o.complete ? 1 : 0 });
    }
  }
  return out;
}

/** Gradient descent on the mean log-loss plus `l2`·|w|² (bias not penalised). */
export function fitLogistic(data: readonly Example[], l2 = 0.01, steps = 4000, rate = 0.2): ConfidenceModel {
  const w = [0, 0, 0];
  for (let s = 0; s < steps; s++) {
    const g = [0, 0, 0];
    for (const { x, y } of data) {
      const p = 1 / (1 + Math.exp(-((w[0] as number) + (w[1] as number) * x[0] + (w[2] as number) * x[1])));
      g[0] = (g[0] as number) + (p - y);
      g[1] = (g[1] as number) + (p - y) * x[0];
      g[2] = (g[2] as number) + (p - y) * x[1];
    }
    for (let i = 0; i < 3; i++) w[i] = (w[i] as number) - rate * ((g[i] as number) / data.length + (i > 0 ? l2 * (w[i] as number) : 0));
  }
  return { bias: w[0] as number, coverage: w[1] as number, score: w[2] as number };
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const data = calibrationExamples();
  const model = fitLogistic(data);
  const r = (x: number) => Math.round(x * 100) / 100;
  console.log(`${data.length} tuning examples, ${data.filter((e) => e.y === 1).length} answered correctly when nothing is refused`);
  console.log(`CONFIDENCE_MODEL = { bias: ${r(model.bias)}, coverage: ${r(model.coverage)}, score: ${r(model.score)} }`);
  console.log('\nminConfidence  English complete / wrongly refused / near-topic refused   German+French complete / near-topic refused');
  const sets = tuningSetNames().map((n) => loadSet(n));
  for (const minConfidence of [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6]) {
    const out = sets.flatMap((s) => runVisitorSet(s, { minConfidence })).filter((o) => o.question.half === 'tune');
    const en = summarizeVisitor(out.filter((o) => o.language === 'en'));
    const xx = summarizeVisitor(out.filter((o) => o.language !== 'en'));
    const p = (x: number) => `${(x * 100).toFixed(0)}%`.padStart(4);
    console.log(`${minConfidence.toFixed(2).padEnd(13)}  ${p(en.correctComplete)} / ${p(en.wronglyRefused)} / ${p(en.correctlyRefused)}                          ${p(xx.correctComplete)} / ${p(xx.correctlyRefused)}`);
  }
}
