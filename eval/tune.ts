/**
 * `npx tsx eval/tune.ts`: the grid behind the answerer's decision defaults, on the TUNING half of
 * the visitor sets only (the reporting half is never looked at here). Prints the best settings by
 * correct & complete answers, among those that refuse at least 85% of the near-topic questions.
 */
import { answerExtractively } from '../src/knowledge/answering/extractive.js';
import type { ExtractiveOptions } from '../src/knowledge/answering/plan.js';
import { DEFAULT_INFORMATIVENESS } from '../src/knowledge/retrieval/query-expansion.js';
import { KnowledgeIndex } from '../src/knowledge/retrieval/knowledge-index.js';
import { loadSet, setNames } from './sets.js';

const sets = setNames().map(loadSet);
const collapse = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');

function run(options: ExtractiveOptions): { cc: number; refused: number; wrong: number } {
  let cc = 0;
  let answerable = 0;
  let refused = 0;
  let unanswerable = 0;
  let wrong = 0;
  for (const set of sets) {
    const index = KnowledgeIndex.build(set.records);
    const byId = new Map(set.records.map((r) => [r.recordId, r]));
    for (const q of set.questions) {
      if (q.half !== 'tune') continue;
      const retrieved = index.search(q.question, 6).map((h) => ({ ...(byId.get(h.recordId) as (typeof set.records)[number]), score: h.score }));
      const a = answerExtractively(q.question, retrieved, { ...options, stats: index });
      if (q.type === 'unanswerable') {
        unanswerable++;
        if (!a.grounded) refused++;
      } else {
        answerable++;
        const text = collapse(a.answer);
        if (a.grounded && q.facts.every((alts) => alts.some((alt) => text.includes(collapse(alt))))) cc++;
        else if (a.grounded) wrong++;
      }
    }
  }
  return { cc: cc / answerable, refused: refused / unanswerable, wrong: wrong / answerable };
}

const rows: { config: string; cc: number; refused: number; wrong: number }[] = [];
for (const commonRank of [800, 1500, 3000]) {
  DEFAULT_INFORMATIVENESS.commonRank = commonRank;
  for (const minCoverage of [0.3, 0.4, 0.5, 0.6]) {
    for (const unmatchedWeight of [0.25, 0.5, 0.75, 1]) {
      for (const generalFloor of [0.2, 0.4, 0.6]) {
        for (const recordCredit of [0.5, 0.8]) {
          const r = run({ minCoverage, unmatchedWeight, generalFloor, recordCredit });
          rows.push({ config: JSON.stringify({ commonRank, minCoverage, unmatchedWeight, generalFloor, recordCredit }), ...r });
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
