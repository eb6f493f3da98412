import { loadSet, setNames } from './sets.js';
import { runVisitorSet } from './visitor.js';
const half = process.argv[2] ?? 'tune';
for (const name of setNames()) {
  const set = loadSet(name);
  for (const o of runVisitorSet({ ...set, questions: set.questions.filter((q) => q.half === half) })) {
    if (o.question.type === 'unanswerable' || !o.answer.grounded) continue;
    const gold = new Set(set.goldIds.get(o.question.id) ?? []);
    const extra = o.answer.sources.filter((s) => !gold.has(s.recordId));
    if (extra.length === 0 || extra.length === o.answer.sources.length) continue;
    console.log(`${name} ${o.question.id} [${o.question.type}] complete=${o.complete}\n  Q: ${o.question.question}\n  A: ${o.answer.answer.slice(0, 400)}\n  extra: ${extra.map((s) => s.recordId).join(', ')}`);
  }
}
