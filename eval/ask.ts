/**
 * Asks questions of one visitor set's records and prints each answer as a visitor would read it,
 * with the titles of the records it cites: `npx tsx eval/ask.ts <set> "question" ["question" …]`.
 * `--after "earlier question"` asks that question first and asks the questions after it as its
 * follow-ups (the earlier turn and its answer sent as the conversation, as the widget sends them).
 * For trying questions by hand (docs/quality.md); `debug-question.ts` explains the decision.
 */
import type { Turn } from '../src/knowledge/answering/types.js';
import { loadSet } from './sets.js';
import { askerOf } from './visitor.js';

const [setName, ...args] = process.argv.slice(2);
if (!setName || args.length === 0) throw new Error('usage: tsx eval/ask.ts <set> [--after "earlier question"] "question" ["question" …]');
const ask = askerOf(loadSet(setName));
let conversation: Turn[] | undefined;
for (let i = 0; i < args.length; i++) {
  const question = args[i] as string;
  if (question === '--after') {
    const earlier = args[++i];
    if (earlier === undefined) throw new Error('--after needs the earlier question');
    const answer = ask(earlier);
    console.log(`(earlier) Q: ${earlier}\n(earlier) A: ${answer.grounded ? answer.answer : `(refused) ${answer.answer}`}\n`);
    conversation = [
      { role: 'user', content: earlier },
      { role: 'assistant', content: answer.answer },
    ];
    continue;
  }
  const answer = ask(question, conversation);
  console.log(`Q: ${question}`);
  console.log(`A: ${answer.grounded ? answer.answer : `(refused) ${answer.answer}`}`);
  for (const [k, source] of answer.sources.entries()) console.log(`   [${k + 1}] ${source.title ?? source.recordId}`);
  console.log('');
}
