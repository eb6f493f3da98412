/**
 * What a refusal offers instead (src/knowledge/answering/suggestions.ts), measured on the visitor
 * sets: `npx tsx eval/suggestions.ts [--half tune|report] [--show]`. For each refusal, the records
 * suggested as the query service suggests them (the question as searched, the records retrieval
 * gave the answerer: eval/visitor.ts's asker). Counted: answerable questions refused, how many of
 * them come with a suggestion and with the gold record among the suggestions; unanswerable
 * (near-topic) questions refused and how many come with a suggestion; and the off-topic questions
 * (eval/off-topic.json) over each English set, where a suggestion is a coincidence of words. The
 * thresholds were chosen on the tuning half (docs/quality.md, "Session 44"). `npm run eval` prints
 * the gold and near-topic shares per set.
 */
import { readFileSync } from 'node:fs';
import type { Suggestion } from '../src/knowledge/answering/suggestions.js';
import { loadSet, setNames } from './sets.js';
import { askerOf } from './visitor.js';

const halfArg = process.argv.indexOf('--half');
const half = halfArg >= 0 ? process.argv[halfArg + 1] : 'report';
if (half !== 'tune' && half !== 'report') throw new Error('--half takes tune or report');
const show = process.argv.includes('--show');
const offTopic = (JSON.parse(readFileSync(new URL('./off-topic.json', import.meta.url), 'utf8')) as { questions: string[] }).questions;

const tally = { answerableRefused: 0, answerableSuggested: 0, goldSuggested: 0, unanswerableRefused: 0, unanswerableSuggested: 0, offTopicRefused: 0, offTopicSuggested: 0 };
const titles = (suggestions: Suggestion[]) => suggestions.map((s) => s.title).join(' | ') || '(none)';

for (const name of setNames()) {
  const set = loadSet(name);
  const asker = askerOf(set);
  const ask = (question: string, conversation?: (typeof set.questions)[number]['conversation']) => {
    const { grounded } = asker(question, conversation);
    return { grounded, suggestions: grounded ? [] : asker.suggest(question, conversation) };
  };
  for (const q of set.questions) {
    if (q.half !== half) continue;
    const { grounded, suggestions } = ask(q.question, q.conversation);
    if (grounded) continue;
    if (q.type === 'unanswerable') {
      tally.unanswerableRefused++;
      if (suggestions.length > 0) tally.unanswerableSuggested++;
    } else {
      const gold = new Set(set.goldIds.get(q.id) ?? []);
      tally.answerableRefused++;
      if (suggestions.length > 0) tally.answerableSuggested++;
      if (suggestions.some((s) => gold.has(s.recordId))) tally.goldSuggested++;
    }
    if (show) console.log(`${name} ${q.id} [${q.type}] ${q.question}\n  gold: ${q.gold.join(' | ') || '(none)'}\n  suggested: ${titles(suggestions)}`);
  }
  if (set.language !== 'en') continue;
  for (const question of offTopic) {
    const { grounded, suggestions } = ask(question);
    if (grounded) continue;
    tally.offTopicRefused++;
    if (suggestions.length > 0) {
      tally.offTopicSuggested++;
      if (show) console.log(`${name} off-topic: ${question}\n  suggested: ${titles(suggestions)}`);
    }
  }
}

const share = (n: number, of: number) => `${n} of ${of}${of > 0 ? ` (${((100 * n) / of).toFixed(1)}%)` : ''}`;
console.log(`Suggestions beside refusals, ${half} half`);
console.log(`  answerable questions refused, with suggestions: ${share(tally.answerableSuggested, tally.answerableRefused)}`);
console.log(`  answerable questions refused, gold record suggested: ${share(tally.goldSuggested, tally.answerableRefused)}`);
console.log(`  unanswerable questions refused, with suggestions: ${share(tally.unanswerableSuggested, tally.unanswerableRefused)}`);
console.log(`  off-topic questions refused (over the English sets), with suggestions: ${share(tally.offTopicSuggested, tally.offTopicRefused)}`);
