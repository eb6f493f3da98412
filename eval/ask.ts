/**
 * Asks questions of one visitor set's records and prints each answer as a visitor would read it,
 * with the titles of the records it cites: `npx tsx eval/ask.ts <set> "question" ["question" …]`.
 * For trying questions by hand (docs/quality.md); `debug-question.ts` explains the decision.
 */
import { loadSet } from './sets.js';
import { askerOf } from './visitor.js';

const [setName, ...questions] = process.argv.slice(2);
if (!setName || questions.length === 0) throw new Error('usage: tsx eval/ask.ts <set> "question" ["question" …]');
const ask = askerOf(loadSet(setName));
for (const question of questions) {
  const answer = ask(question);
  console.log(`Q: ${question}`);
  console.log(`A: ${answer.grounded ? answer.answer : `(refused) ${answer.answer}`}`);
  for (const [i, source] of answer.sources.entries()) console.log(`   [${i + 1}] ${source.title ?? source.recordId}`);
  console.log('');
}
