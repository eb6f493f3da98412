/**
 * Follow-up questions (eval/follow-ups.json): a visitor's elliptical question after an earlier one
 * ("Do you ship to Canada?" → "And how long does that take?"), asked of a visitor set's records with
 * the conversation the widget would send (each earlier question asked in turn, its answer the
 * assistant's turn). Answerable ones must be answered with their facts; near-topic ones (the records
 * answer the earlier question but not the follow-up) must be refused rather than answered with the
 * earlier question's record again. Written before the answerer was changed for them, split into a
 * tuning and a reporting half like the visitor sets. Cases marked `heldOut` (all on the reporting
 * half) were written after the changes they measure and never looked at while tuning: German and
 * French ones on three sets that had none (session 47), English ones on four tuned sets (session 48),
 * and the `k` cases of session 49, written before its pronoun change.
 *
 * `npm run eval` prints the table; `npx tsx eval/follow-ups.ts [--half tune|report|all]` also lists
 * every follow-up not answered right.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Answer } from '../src/knowledge/answering/types.js';
import { rate as shareOf, round, withoutMarkers } from './metrics.js';
import { askerOf, type SetAsker } from './visitor.js';
import { loadSet, type Turn, type VisitorSet } from './sets.js';

interface FollowUpCase {
  id: string;
  set: string;
  half: 'tune' | 'report';
  /** The visitor's earlier questions, oldest first. */
  earlier: string[];
  question: string;
  /** Titles of the records that answer it; empty when the records do not. */
  gold: string[];
  /** Each fact a list of acceptable spellings; all must be in the answer. */
  facts: string[][];
  /** Written after the answerer was changed for follow-ups, to measure it on cases nobody tuned on. */
  heldOut?: boolean;
}

export interface FollowUpOutcome {
  case: FollowUpCase;
  conversation: Turn[];
  answer: Answer;
  answerable: boolean;
  complete: boolean;
  citesGold: boolean;
}

export interface FollowUpSummary {
  answerable: number;
  unanswerable: number;
  correctComplete: number;
  citesGold: number;
  wronglyRefused: number;
  correctlyRefused: number;
}

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'follow-ups.json');
const fold = (text: string) => withoutMarkers(text).toLowerCase().replace(/\s+/gu, ' ');

function loadCases(): FollowUpCase[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { questions: FollowUpCase[] }).questions;
}

/** Every follow-up of `half` (or all), asked in its conversation. */
export function runFollowUps(half: string): FollowUpOutcome[] {
  const askers = new Map<string, { ask: SetAsker; titles: Map<string, string> }>();
  const outcomes: FollowUpOutcome[] = [];
  for (const c of loadCases()) {
    if (half !== 'all' && c.half !== half) continue;
    let entry = askers.get(c.set);
    if (!entry) {
      const set = loadSet(c.set);
      entry = { ask: askerOf(set), titles: new Map(set.records.map((r) => [r.recordId, r.title ?? ''])) };
      askers.set(c.set, entry);
    }
    const conversation: Turn[] = [];
    for (const earlier of c.earlier) {
      const answer = entry.ask(earlier, conversation.length > 0 ? [...conversation] : undefined);
      conversation.push({ role: 'user', content: earlier }, { role: 'assistant', content: withoutMarkers(answer.answer) });
    }
    const answer = entry.ask(c.question, conversation);
    const answerable = c.gold.length > 0;
    const cited = answer.sources.map((s) => entry.titles.get(s.recordId) ?? '');
    const text = fold(answer.answer);
    outcomes.push({
      case: c,
      conversation,
      answer,
      answerable,
      complete: answerable && answer.grounded && c.facts.every((spellings) => spellings.some((s) => text.includes(fold(s)))),
      citesGold: answer.grounded && cited.some((title) => c.gold.includes(title)),
    });
  }
  return outcomes;
}

/**
 * What is wrong with the follow-up cases, as messages (empty when sound): every case names a set,
 * a half and earlier questions; every gold title names a record of its set; every fact is spelt
 * in one of its gold records; each half of each set holds answerable and near-topic cases.
 */
export function checkFollowUps(): string[] {
  const problems: string[] = [];
  const sets = new Map<string, VisitorSet>();
  const cases = loadCases();
  for (const c of cases) {
    let set = sets.get(c.set);
    if (!set) {
      set = loadSet(c.set);
      sets.set(c.set, set);
    }
    if (c.earlier.length === 0) problems.push(`${c.id}: no earlier question`);
    if (c.half !== 'tune' && c.half !== 'report') problems.push(`${c.id}: half ${String(c.half)}`);
    if (c.gold.length > 0 !== c.facts.length > 0) problems.push(`${c.id}: gold and facts must both be given or both be empty`);
    const gold = set.records.filter((r) => r.title !== null && c.gold.includes(r.title));
    for (const title of c.gold) if (!gold.some((r) => r.title === title)) problems.push(`${c.id}: no record titled ${JSON.stringify(title)}`);
    for (const fact of c.facts) if (!fact.some((s) => gold.some((r) => fold(r.text).includes(fold(s))))) problems.push(`${c.id}: fact ${JSON.stringify(fact)} in no gold record`);
  }
  for (const name of sets.keys()) {
    const heldOut = cases.filter((c) => c.set === name).every((c) => c.heldOut === true);
    for (const half of heldOut ? ['report'] : ['tune', 'report']) {
      const inHalf = cases.filter((c) => c.set === name && c.half === half);
      if (!inHalf.some((c) => c.gold.length > 0) || !inHalf.some((c) => c.gold.length === 0)) problems.push(`${name}: the ${half} half lacks answerable or near-topic follow-ups`);
    }
  }
  return problems;
}

const rate = (flags: boolean[]) => round(shareOf(flags));

export function summarizeFollowUps(outcomes: readonly FollowUpOutcome[]): FollowUpSummary {
  const answerable = outcomes.filter((o) => o.answerable);
  const unanswerable = outcomes.filter((o) => !o.answerable);
  return {
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    correctComplete: rate(answerable.map((o) => o.complete)),
    citesGold: rate(answerable.map((o) => o.citesGold)),
    wronglyRefused: rate(answerable.map((o) => !o.answer.grounded)),
    correctlyRefused: rate(unanswerable.map((o) => !o.answer.grounded)),
  };
}

/** Whether the outcome is wrong: an answerable follow-up not answered completely, or a near-topic one answered. */
export const followUpFailed = (o: FollowUpOutcome): boolean => (o.answerable ? !o.complete : o.answer.grounded);

function main(): void {
  const flag = process.argv.indexOf('--half');
  const half = flag > 0 ? (process.argv[flag + 1] ?? 'report') : 'report';
  const outcomes = runFollowUps(half);
  console.log(`Follow-up questions (${half} half): ${JSON.stringify(summarizeFollowUps(outcomes))}`);
  for (const o of outcomes.filter(followUpFailed)) {
    console.log(`\n${o.case.id} [${o.answerable ? 'answerable' : 'unanswerable'}] ${o.answer.grounded ? (o.answerable ? 'INCOMPLETE' : 'ANSWERED') : 'REFUSED'}`);
    for (const earlier of o.case.earlier) console.log(`  earlier: ${earlier}`);
    console.log(`  Q: ${o.case.question}`);
    if (o.answerable) console.log(`  gold: ${o.case.gold.join(' | ')}  facts: ${JSON.stringify(o.case.facts)}`);
    if (o.answer.grounded) console.log(`  A: ${o.answer.answer.slice(0, 240)}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
