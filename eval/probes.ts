/**
 * Questions asked by hand of the tuned sets' records, with what a correct reply opens with
 * (eval/probes.json): development data beside the tuning half, so that a change is also checked
 * against questions it was not written for, refusals included. `npx tsx eval/probes.ts` prints
 * every probe that fails and the counts; `--all` prints the passing ones too. Held-out sets are
 * never probed.
 */
import { readFileSync } from 'node:fs';
import { loadSet, type VisitorSet } from './sets.js';
import { askerOf, type SetAsker } from './visitor.js';

interface Probe {
  set: string;
  question: string;
  /** Titles (or a Markdown title's last part) of the records a correct reply may open with; null for a refusal. */
  expect: string[] | null;
}

const { probes } = JSON.parse(readFileSync(new URL('./probes.json', import.meta.url), 'utf8')) as { probes: Probe[] };
const all = process.argv.includes('--all');
const sets = new Map<string, { set: VisitorSet; ask: SetAsker; titles: Map<string, string | null> }>();
const tally = { answerable: 0, answered: 0, unanswerable: 0, refused: 0 };

for (const probe of probes) {
  let known = sets.get(probe.set);
  if (known === undefined) {
    const set = loadSet(probe.set);
    if (set.heldOut) throw new Error(`${probe.set} is held out: it is never probed`);
    known = { set, ask: askerOf(set), titles: new Map(set.records.map((r) => [r.recordId, r.title])) };
    sets.set(probe.set, known);
  }
  const answer = known.ask(probe.question);
  const opened = answer.grounded ? (known.titles.get(answer.sources[0]?.recordId ?? '') ?? '') : null;
  const passed = probe.expect === null ? opened === null : opened !== null && probe.expect.some((t) => opened === t || opened.endsWith(` › ${t}`));
  if (probe.expect === null) {
    tally.unanswerable++;
    if (passed) tally.refused++;
  } else {
    tally.answerable++;
    if (passed) tally.answered++;
  }
  if (!passed || all) console.log(`${passed ? 'PASS' : 'FAIL'} ${probe.set}: ${probe.question} → ${opened ?? '(refused)'}`);
}
console.log(`\nanswerable probes opened from a right record: ${tally.answered} / ${tally.answerable}; unanswerable probes refused: ${tally.refused} / ${tally.unanswerable}`);
