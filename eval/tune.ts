/**
 * `npx tsx eval/tune.ts`: the grid behind the answerer's word weighting (how common words and
 * words the knowledge base lacks count) and its coverage rule, on the TUNING half of the visitor
 * sets only (the reporting half is never looked at here). Prints the best settings by correct &
 * complete answers, among those that refuse at least 85% of the near-topic questions. The
 * confidence model and its threshold come from eval/calibrate.ts.
 */
import type { ExtractiveOptions } from '../src/knowledge/answering/plan-options.js';
import { DEFAULT_INFORMATIVENESS } from '../src/knowledge/retrieval/query-expansion.js';
import { loadSet, tuningSetNames } from './sets.js';
import { runVisitorSet, summarizeVisitor } from './visitor.js';

const sets = tuningSetNames().map(loadSet);

function run(options: ExtractiveOptions): { cc: number; refused: number; wrong: number } {
  const outcomes = sets.flatMap((set) => runVisitorSet(set, options)).filter((o) => o.question.half === 'tune');
  const s = summarizeVisitor(outcomes);
  return { cc: s.correctComplete, refused: s.correctlyRefused, wrong: 1 - s.correctComplete - s.wronglyRefused };
}

const rows: { config: string; cc: number; refused: number; wrong: number }[] = [];
for (const commonRank of [800, 1500, 3000]) {
  DEFAULT_INFORMATIVENESS.commonRank = commonRank;
  for (const sufficientCoverage of [0.3, 0.4, 0.5, 0.6]) {
    for (const unmatchedWeight of [0.25, 0.5, 0.75, 1]) {
      for (const generalFloor of [0.2, 0.4, 0.6]) {
        for (const recordCredit of [0.5, 0.8]) {
          const r = run({ sufficientCoverage, unmatchedWeight, generalFloor, recordCredit });
          rows.push({ config: JSON.stringify({ commonRank, sufficientCoverage, unmatchedWeight, generalFloor, recordCredit }), ...r });
        }
      }
    }
  }
}
rows.sort((a, b) => b.cc - a.cc || b.refused - a.refused);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
for (const r of rows.filter((r) => r.refused >= 0.85).slice(0, 15)) console.log(`${pct(r.cc)} complete, ${pct(r.refused)} refused, ${pct(r.wrong)} answered incompletely  ${r.config}`);
console.log('--- best regardless of refusals');
for (const r of rows.slice(0, 5)) console.log(`${pct(r.cc)} complete, ${pct(r.refused)} refused, ${pct(r.wrong)} answered incompletely  ${r.config}`);
