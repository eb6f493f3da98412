/**
 * Lists the questions of one half that are not answered correctly and completely (answerable) or
 * not refused (unanswerable), with what the answerer did: `npx tsx eval/failures.ts [--half tune|report] [--every] [set…]`.
 * For reading failures while tuning; the figures come from eval/run.ts. `--every` lists every
 * question's outcome (OK for a success), for comparing two trees' answers line by line.
 */
import { loadSet, setNames } from './sets.js';
import { runVisitorSet } from './visitor.js';

const args = process.argv.slice(2);
const flag = args.indexOf('--half');
const half = flag >= 0 ? (args[flag + 1] ?? 'tune') : 'tune';
const every = args.includes('--every');
const names = args.filter((a, i) => !a.startsWith('--') && (flag < 0 || i !== flag + 1));
for (const set of setNames().map(loadSet)) {
  if (names.length > 0 && !names.includes(set.name)) continue;
  const questions = set.questions.filter((q) => half === 'all' || q.half === half);
  for (const o of runVisitorSet({ ...set, questions })) {
    const answerable = o.question.type !== 'unanswerable';
    const ok = answerable ? o.complete : !o.answer.grounded;
    if (ok && !every) continue;
    const what = ok ? 'OK' : !o.answer.grounded ? 'REFUSED' : answerable ? `INCOMPLETE missing ${JSON.stringify(o.missingFacts)}` : 'ANSWERED';
    console.log(`${set.name} ${o.question.id} [${o.question.type}] ${what}\n  Q: ${o.question.question}\n  gold: ${o.question.gold.join(' | ')}`);
    if (o.answer.grounded) console.log(`  A: ${o.answer.answer.replace(/\s+/g, ' ').slice(0, 300)}\n  cites: ${o.answer.sources.map((s) => s.recordId).join(', ')}`);
  }
}
