/**
 * The records' own questions, asked as they are written: what a starter question taken from the
 * records ("Take from your records" on the dashboard's Widget tab) gets. For every record of the
 * visitor sets whose title is a question, whether asking that title is answered, and from that
 * record. Any refusal here is a bug to look at: the words are the record's own.
 *
 *   npx tsx eval/own-questions.ts [--show]
 */
import { loadSet, setNames } from './sets.js';
import { askerOf } from './visitor.js';

const show = process.argv.includes('--show');
let asked = 0;
let answered = 0;
let fromIt = 0;
for (const name of setNames()) {
  const set = loadSet(name);
  const ask = askerOf(set);
  let setAsked = 0;
  let setAnswered = 0;
  let setFromIt = 0;
  for (const record of set.records) {
    const title = record.title?.trim();
    if (!title?.endsWith('?')) continue;
    const answer = ask(title);
    setAsked++;
    if (answer.grounded) setAnswered++;
    const cites = answer.sources[0]?.recordId === record.recordId;
    if (answer.grounded && cites) setFromIt++;
    if (show && !(answer.grounded && cites)) console.log(`${name}: ${title}\n  → ${answer.grounded ? `cites ${answer.sources.map((s) => s.title).join(' | ')}` : 'refused'}`);
  }
  if (setAsked > 0) console.log(`${name.padEnd(22)} ${setAsked} questions, answered ${setAnswered}, first citing its own record ${setFromIt}`);
  asked += setAsked;
  answered += setAnswered;
  fromIt += setFromIt;
}
console.log(`All: ${asked} records' own questions, answered ${answered} (${((100 * answered) / asked).toFixed(1)}%), first citing their own record ${fromIt} (${((100 * fromIt) / asked).toFixed(1)}%)`);
