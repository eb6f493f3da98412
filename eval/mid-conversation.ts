/**
 * Questions that stand on their own, asked in the middle of a chat. A visitor rarely asks one
 * question: "Do you ship to Canada?" is followed by "Which cards do you take?", which is about
 * payment, not Canada. Each visitor question of a half is asked after the question before it in its
 * set (the widget's conversation: that question and the answer it got) and scored as when asked
 * alone. A question wrongly read as a follow-up is searched and answered together with the earlier
 * one, so this measures what reading follow-ups costs the questions that are not.
 *
 * `npm run eval` prints the table; `npx tsx eval/mid-conversation.ts [--half tune|report|all]` also
 * lists every question whose outcome the conversation changed.
 */
import { fileURLToPath } from 'node:url';
import { isFollowUp } from '../src/knowledge/answering/follow-up.js';
import { loadSet, setNames, type Turn } from './sets.js';
import { rate, round, withoutMarkers } from './metrics.js';
import { askerOf, judgeAnswer, type VisitorOutcome } from './visitor.js';

export interface MidConversationOutcome {
  alone: VisitorOutcome;
  inConversation: VisitorOutcome;
  conversation: Turn[];
  /** The answerer read the question as leaning on the one before. */
  readAsFollowUp: boolean;
}

export interface MidConversationSummary {
  questions: number;
  readAsFollowUp: number;
  /** Answerable questions answered right (all facts) alone and in the conversation. */
  correctAlone: number;
  correctInConversation: number;
  /** Near-topic questions refused alone and in the conversation. */
  refusedAlone: number;
  refusedInConversation: number;
  /** Questions right alone and wrong in the conversation, and the other way round. */
  worse: number;
  better: number;
}

/** Every visitor question of `half` (or all) asked after the question before it in its set. */
export function runMidConversation(half: string): MidConversationOutcome[] {
  const outcomes: MidConversationOutcome[] = [];
  for (const name of setNames()) {
    const set = loadSet(name);
    const ask = askerOf(set);
    set.questions.forEach((question, i) => {
      if (i === 0 || (half !== 'all' && question.half !== half) || question.conversation !== undefined) return;
      const before = set.questions[i - 1] as (typeof set.questions)[number];
      const earlier = ask(before.question);
      const conversation: Turn[] = [
        { role: 'user', content: before.question },
        { role: 'assistant', content: withoutMarkers(earlier.answer) },
      ];
      outcomes.push({
        alone: judgeAnswer(set, ask, question, undefined, ask(question.question)),
        inConversation: judgeAnswer(set, ask, question, conversation, ask(question.question, conversation)),
        conversation,
        readAsFollowUp: isFollowUp(question.question, conversation),
      });
    });
  }
  return outcomes;
}

/** Whether an outcome is right: an answerable question answered with all its facts, a near-topic one refused. */
export const isRight = (o: VisitorOutcome): boolean => (o.question.type === 'unanswerable' ? !o.answer.grounded : o.complete);

const share = (flags: readonly boolean[]) => round(rate(flags));

export function summarizeMidConversation(outcomes: readonly MidConversationOutcome[]): MidConversationSummary {
  const answerable = outcomes.filter((o) => o.alone.question.type !== 'unanswerable');
  const nearTopic = outcomes.filter((o) => o.alone.question.type === 'unanswerable');
  return {
    questions: outcomes.length,
    readAsFollowUp: share(outcomes.map((o) => o.readAsFollowUp)),
    correctAlone: share(answerable.map((o) => o.alone.complete)),
    correctInConversation: share(answerable.map((o) => o.inConversation.complete)),
    refusedAlone: share(nearTopic.map((o) => !o.alone.answer.grounded)),
    refusedInConversation: share(nearTopic.map((o) => !o.inConversation.answer.grounded)),
    worse: outcomes.filter((o) => isRight(o.alone) && !isRight(o.inConversation)).length,
    better: outcomes.filter((o) => !isRight(o.alone) && isRight(o.inConversation)).length,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const flag = process.argv.indexOf('--half');
  const half = flag > 0 ? (process.argv[flag + 1] ?? 'report') : 'report';
  const outcomes = runMidConversation(half);
  console.log(`Standalone questions mid-conversation (${half} half): ${JSON.stringify(summarizeMidConversation(outcomes))}\n`);
  for (const o of outcomes) {
    const alone = isRight(o.alone);
    const within = isRight(o.inConversation);
    if (alone === within && !o.readAsFollowUp) continue;
    const verdict = alone === within ? (alone ? 'read as a follow-up, still right' : 'read as a follow-up, still wrong') : within ? 'BETTER in conversation' : 'WORSE in conversation';
    console.log(`${o.alone.set} ${o.alone.question.id} [${o.alone.question.type}] ${verdict}`);
    console.log(`  earlier: ${o.conversation[0]?.content}`);
    console.log(`  Q: ${o.alone.question.question}`);
    console.log(`  alone: ${o.alone.answer.answer.slice(0, 160)}`);
    console.log(`  in conversation: ${o.inConversation.answer.answer.slice(0, 160)}\n`);
  }
}
