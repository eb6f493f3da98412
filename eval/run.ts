/**
 * `npm run eval` (or `npx tsx eval/run.ts`): retrieval, answer and abstention figures on
 * SQuAD 2.0 "Normans" (+ our off-topic questions) and on a small shop FAQ. Writes
 * eval/results/latest.json. `--sweep` also prints the parameter grids used to calibrate the
 * defaults (docs/quality.md).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Dataset, loadFaq, loadSquad, repoRoot } from './dataset.js';
import { type Outcome, runQuestions, type Summary, summarize } from './evaluate.js';
import { measurePerformance } from './perf.js';
import { printSweeps } from './sweep.js';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

const ROWS: [string, (s: Summary) => string][] = [
  ['Records / answerable / unanswerable / off-topic', (s) => `${s.counts.records} / ${s.counts.answerable} / ${s.counts.unanswerable} / ${s.counts.offTopic}`],
  ['Retrieval hit@1 (answerable)', (s) => pct(s.retrieval.hitAt1)],
  ['Retrieval hit@5 (answerable)', (s) => pct(s.retrieval.hitAt5)],
  ['Answer contains gold (answerable)', (s) => pct(s.answers.containsGold)],
  ['Answer contains gold (answerable, when grounded)', (s) => pct(s.answers.containsGoldWhenGrounded)],
  ['Cites gold record (answerable)', (s) => pct(s.answers.citesGoldParagraph)],
  ['Abstained on unanswerable', (s) => pct(s.abstention.unanswerableAbstained)],
  ['Wrongly abstained on answerable', (s) => pct(s.abstention.answerableWronglyAbstained)],
  ['Abstained on off-topic', (s) => pct(s.abstention.offTopicAbstained)],
  ['AUROC answerable vs unanswerable: coverage', (s) => s.separability.coverageAuroc.toFixed(3)],
  ['AUROC answerable vs unanswerable: top BM25 score', (s) => s.separability.topScoreAuroc.toFixed(3)],
  ['Query p50 / p95, wall (search + answer)', (s) => `${s.timingMs.p50.toFixed(2)} / ${s.timingMs.p95.toFixed(2)} ms`],
  ['Query p50 / p95, CPU (search + answer)', (s) => `${s.timingMs.cpuP50.toFixed(2)} / ${s.timingMs.cpuP95.toFixed(2)} ms`],
];

/** Questions the answerer got wrong, for reading (never for tuning single questions). */
function failures(outcomes: readonly Outcome[]) {
  return outcomes
    .filter((o) => (o.kind === 'answerable' && !o.contains) || (o.kind !== 'answerable' && o.answer.grounded))
    .map((o) => ({ kind: o.kind, question: o.question, goldRank: o.goldRank, coverage: Math.round(o.coverage * 1000) / 1000, answer: o.answer.answer }));
}

function main(): void {
  const datasets: Dataset[] = [loadSquad(), loadFaq()];
  const runs = datasets.map((data) => {
    const outcomes = runQuestions(data);
    return { data, outcomes, summary: summarize(data, outcomes) };
  });
  const perf = measurePerformance(datasets[0]?.records ?? []);

  const w0 = Math.max(...ROWS.map(([k]) => k.length));
  const cols = runs.map((r) => r.data.name);
  const w1 = Math.max(22, ...cols.map((c) => c.length));
  console.log(`${'Groundwork quality evaluation'.padEnd(w0)}  ${cols.map((c) => c.padEnd(w1)).join('  ')}`);
  for (const [label, cell] of ROWS) console.log(`${label.padEnd(w0)}  ${runs.map((r) => cell(r.summary).padEnd(w1)).join('  ')}`);
  console.log(
    `\nIndex build CPU: 25 Normans paragraphs ${perf.build25Ms.toFixed(3)} ms, 25 FAQ-sized records ${perf.build25FaqMs.toFixed(3)} ms, 5,000 records ${perf.build5000Ms.toFixed(1)} ms`,
  );
  console.log(`Search CPU: 25 records ${perf.search25Us.toFixed(1)} µs, 5,000 records ${perf.search5000Us.toFixed(1)} µs`);

  const dir = path.join(repoRoot, 'eval', 'results');
  mkdirSync(dir, { recursive: true });
  const json = {
    generatedAt: new Date().toISOString(),
    datasets: Object.fromEntries(runs.map((r) => [r.data.name, { summary: r.summary, failures: failures(r.outcomes) }])),
    performance: perf,
  };
  writeFileSync(path.join(dir, 'latest.json'), `${JSON.stringify(json, null, 2)}\n`);
  console.log(`\nWrote ${path.relative(repoRoot, path.join(dir, 'latest.json'))}`);

  if (process.argv.includes('--sweep')) printSweeps(datasets);
}

main();
