/**
 * What the answer-or-refuse decision cannot fix: `npx tsx eval/bound.ts [--half tune|report] [-v]`.
 * Answers every visitor question of one half with nothing refused (`minConfidence`, `minCoverage`
 * and `sufficientCoverage` 0) and prints, per set, how many answerable questions are then correct
 * and complete (the most any decision could reach), and for the rest where the gold record ranked
 * in retrieval: first, among the records the answerer reads (2nd–5th), or not among them. `-v`
 * lists those questions. Reading the reporting half here chooses nothing; tune on the tuning half.
 */
import { contextualQuery } from '../src/knowledge/answering/follow-up.js';
import { KnowledgeIndex } from '../src/knowledge/retrieval/knowledge-index.js';
import { loadSet, setNames } from './sets.js';
import { runVisitorSet } from './visitor.js';

const flag = process.argv.indexOf('--half');
const half = flag >= 0 ? (process.argv[flag + 1] ?? 'tune') : 'tune';
const verbose = process.argv.includes('-v');
// The answerer reads the first five records retrieved (plan-options.ts, `maxRecords`).
const READ = 5;

for (const name of setNames()) {
  const set = loadSet(name);
  const index = KnowledgeIndex.build(set.records);
  const questions = set.questions.filter((q) => q.half === half);
  const outcomes = runVisitorSet({ ...set, questions }, { minConfidence: 0, minCoverage: 0, sufficientCoverage: 0 });
  let answerable = 0;
  let complete = 0;
  const missed = { first: 0, read: 0, unread: 0 };
  for (const o of outcomes) {
    if (o.question.type === 'unanswerable') continue;
    answerable++;
    if (o.complete) {
      complete++;
      continue;
    }
    const gold = new Set(set.goldIds.get(o.question.id) ?? []);
    const ranked = index.search(contextualQuery(o.question.question, o.question.conversation), READ).map((h) => h.recordId);
    const rank = ranked.findIndex((id) => gold.has(id));
    const where = rank === 0 ? 'first' : rank > 0 ? 'read' : 'unread';
    missed[where]++;
    if (verbose) console.log(`  ${o.question.id} gold ${rank < 0 ? `not in the top ${READ}` : `#${rank + 1}`}, cites ${o.answer.sources.map((s) => s.recordId).join(', ') || 'nothing'}: ${o.question.question}`);
  }
  const pct = answerable === 0 ? 0 : (100 * complete) / answerable;
  console.log(`${name} (${half} half): ${complete} of ${answerable} answerable questions correct & complete when nothing is refused (${pct.toFixed(1)}%); of the rest, gold record first ${missed.first}, 2nd–${READ}th ${missed.read}, not in the top ${READ} ${missed.unread}`);
}
