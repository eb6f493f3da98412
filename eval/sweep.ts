/** Parameter grids behind the defaults; printed by `npx tsx eval/run.ts --sweep`. */
import type { ExtractiveOptions } from '../src/knowledge/answering/plan-options.js';
import type { Dataset } from './dataset.js';
import { type Config, runQuestions, summarize } from './evaluate.js';

export function printSweeps(datasets: readonly Dataset[]): void {
  const [data, faq] = datasets;
  if (!data || !faq) return;
  console.log('\nAbstention: coverage threshold θ (minCoverage) × credit for a term elsewhere in the record (recordCredit)');
  console.log('                SQuAD Normans + off-topic                                 | Shop FAQ');
  console.log('credit  θ      unanswerable answerable(wrong) off-topic   contains-gold | unanswerable answerable(wrong) off-topic   contains-gold');
  for (const recordCredit of [0, 0.5, 1]) {
    for (const minCoverage of [0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7]) {
      const config: Config = { answer: { minCoverage, recordCredit } };
      const cells = [data, faq].map((d) => {
        const s = summarize(d, runQuestions(d, config));
        const a = s.abstention;
        return [a.unanswerableAbstained, a.answerableWronglyAbstained, a.offTopicAbstained, s.answers.containsGold]
          .map((x) => x.toFixed(3).padEnd(12))
          .join(' ');
      });
      console.log(`${recordCredit.toFixed(1)}     ${minCoverage.toFixed(2)}   ${cells.join(' | ')}`);
    }
  }
  console.log('\nBM25 k1 / b: retrieval hit@1, hit@5 (SQuAD | Shop FAQ)');
  for (const k1 of [0.9, 1.2, 1.5, 2.0]) {
    for (const b of [0.5, 0.75, 0.9]) {
      const config: Config = { index: { k1, b } };
      const cells = [data, faq].map((d) => {
        const s = summarize(d, runQuestions(d, config));
        return `hit@1 ${s.retrieval.hitAt1.toFixed(3)}  hit@5 ${s.retrieval.hitAt5.toFixed(3)}`;
      });
      console.log(`k1=${k1} b=${b}  ${cells.join(' | ')}`);
    }
  }
  console.log('\nAnswer selection: contains-gold, cites-gold, wrongly abstained on answerable (SQuAD | Shop FAQ)');
  const variants: [string, ExtractiveOptions][] = [
    ['defaults', {}],
    ['IDF estimated from retrieved sentences (no index stats)', { stats: undefined }],
    ['unmatchedWeight 0.5', { unmatchedWeight: 0.5 }],
    ['unmatchedWeight 0.25', { unmatchedWeight: 0.25 }],
    ['priorWeight 0', { priorWeight: 0 }],
    ['priorWeight 0.6', { priorWeight: 0.6 }],
    ['lambda 0.5', { lambda: 0.5 }],
    ['lambda 0.9', { lambda: 0.9 }],
    ['minRelativeRelevance 0.3', { minRelativeRelevance: 0.3 }],
    ['minRelativeRelevance 0.7', { minRelativeRelevance: 0.7 }],
    ['maxSentences 1', { maxSentences: 1 }],
    ['maxSentences 2', { maxSentences: 2 }],
    ['maxRecords 3', { maxRecords: 3 }],
    ['contextWeight 1', { contextWeight: 1 }],
  ];
  for (const [label, answer] of variants) {
    const cells = [data, faq].map((d) => {
      const s = summarize(d, runQuestions(d, { answer }));
      return [s.answers.containsGold, s.answers.citesGoldParagraph, s.abstention.answerableWronglyAbstained].map((x) => x.toFixed(3)).join('  ');
    });
    console.log(`${label.padEnd(55)} ${cells.join(' | ')}`);
  }
}
