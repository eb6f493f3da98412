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

/**
 * How far the fit moves when the tuning examples are resampled (`samples` bootstrap resamples, a
 * fixed seed so the answer is the same on every run): the standard deviation of each weight. With
 * about a hundred examples the weights are uncertain by tenths; a change of the answerer that moves
 * the fit by a small part of that has not changed what the model should be.
 */
export function bootstrapSpread(data: readonly Example[], samples = 40, seed = 1): ConfidenceModel {
  let state = seed;
  // A linear congruential generator: deterministic, good enough to resample a hundred examples.
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
  const fits: ConfidenceModel[] = [];
  for (let b = 0; b < samples; b++) fits.push(fitLogistic(data.map(() => data[Math.floor(next() * data.length)] as Example)));
  const sd = (pick: (m: ConfidenceModel) => number) => {
    const xs = fits.map(pick);
    const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
    return Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
  };
  return { bias: sd((m) => m.bias), coverage: sd((m) => m.coverage), score: sd((m) => m.score) };
}

/**
 * How far `CONFIDENCE_MODEL` may be from the current fit before it must be refitted: a tenth of
 * each weight's bootstrap spread (`bootstrapSpread`), and never less than the rounding to two
 * decimals. Tighter than that, every change of the answerer forced a refit, and a refit within the
 * fit's own noise flipped the questions that lie within a hair of the threshold (docs/decisions.md).
 */
const REFIT_SHARE_OF_SPREAD = 0.1;

export function refitTolerance(spread: ConfidenceModel): ConfidenceModel {
  const t = (x: number) => Math.max(0.01, REFIT_SHARE_OF_SPREAD * x);
  return { bias: t(spread.bias), coverage: t(spread.coverage), score: t(spread.score) };
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const data = calibrationExamples();
  const model = fitLogistic(data);
  const r = (x: number) => Math.round(x * 100) / 100;
  console.log(`${data.length} tuning examples, ${data.filter((e) => e.y === 1).length} answered correctly when nothing is refused`);
  console.log(`CONFIDENCE_MODEL = { bias: ${r(model.bias)}, coverage: ${r(model.coverage)}, score: ${r(model.score)} }`);
  const spread = bootstrapSpread(data);
  const tolerance = refitTolerance(spread);
  const f = (m: ConfidenceModel) => `bias ${m.bias.toFixed(3)}, coverage ${m.coverage.toFixed(3)}, score ${m.score.toFixed(3)}`;
  console.log(`bootstrap spread (sd): ${f(spread)}; refit when the constants are further than ${f(tolerance)} from the fit`);
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
