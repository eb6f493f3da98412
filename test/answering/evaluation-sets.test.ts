/**
 * The visitor-question sets (eval/sets/) are sound: every gold title names a record, every fact is
 * in a gold record, each set has the mix of questions and at least 25 records; and the
 * held-out set is left out of what the answerer is tuned on. So are the follow-up cases.
 */
import { describe, expect, it } from 'vitest';
import { checkSet, loadSet, setNames, tuningSetNames } from '../../eval/sets.js';
import { summarizeVisitor, type VisitorOutcome } from '../../eval/visitor.js';
import { checkFollowUps } from '../../eval/follow-ups.js';
import { type MidConversationOutcome, summarizeMidConversation } from '../../eval/mid-conversation.js';

describe('the evaluation sets', () => {
  for (const name of setNames()) {
    it(`${name} is sound`, () => {
      expect(checkSet(loadSet(name))).toEqual([]);
    });
  }

  it('the follow-up cases are sound (eval/follow-ups.json)', () => {
    expect(checkFollowUps()).toEqual([]);
  });

  const outcome = (type: 'paraphrase' | 'unanswerable', answer: string, grounded: boolean, offered: 'none' | 'gold' | 'other' = 'none'): VisitorOutcome => ({
    set: 's',
    language: 'en',
    question: { id: 'x', type, question: 'q', gold: [], facts: [], half: 'report' },
    answer: { answer, grounded, sources: [] },
    complete: grounded,
    citesGold: grounded,
    citesNonGold: false,
    verbatim: true,
    missingFacts: [],
    offered: offered === 'none' ? [] : [{ title: 'T', recordId: 'r' }],
    offersGold: offered === 'gold',
  });

  it('measures the mean length of the answers given to answerable questions, without the markers', () => {
    const summary = summarizeVisitor([
      outcome('paraphrase', 'Returns are free. [1]', true),
      outcome('paraphrase', 'Ten characters long [1] and more [2]', true),
      // Refusals and answers to unanswerable questions are not counted.
      outcome('paraphrase', "I couldn't find this in the knowledge base.", false),
      outcome('unanswerable', 'A wrong answer of some length. [1]', true),
    ]);
    expect(summary.meanAnswerChars).toBe(Math.round(('Returns are free.'.length + 'Ten characters long and more'.length) / 2));
  });

  it('counts what refusals offer instead, among the refusals only', () => {
    const summary = summarizeVisitor([
      outcome('paraphrase', 'Returns are free. [1]', true),
      outcome('paraphrase', 'No.', false, 'gold'),
      outcome('paraphrase', 'No.', false, 'other'),
      outcome('paraphrase', 'No.', false),
      outcome('paraphrase', 'No.', false),
      outcome('unanswerable', 'No.', false, 'other'),
      outcome('unanswerable', 'No.', false),
      outcome('unanswerable', 'A wrong answer. [1]', true),
    ]);
    expect(summary.refusedGoldOffered).toBe(0.25);
    expect(summary.refusedNearTopicOffered).toBe(0.5);
  });

  it('counts what a conversation changed for standalone questions: right alone and wrong in it, and the reverse', () => {
    const pair = (alone: VisitorOutcome, inConversation: VisitorOutcome, readAsFollowUp: boolean): MidConversationOutcome => ({ alone, inConversation, conversation: [], readAsFollowUp });
    const summary = summarizeMidConversation([
      // An answerable question answered alone, refused in the conversation: worse.
      pair(outcome('paraphrase', 'Returns are free. [1]', true), outcome('paraphrase', 'No.', false), true),
      // A near-topic question answered alone, refused in the conversation: better.
      pair(outcome('unanswerable', 'A wrong answer. [1]', true), outcome('unanswerable', 'No.', false), true),
      // Right both times, not read as a follow-up.
      pair(outcome('paraphrase', 'Returns are free. [1]', true), outcome('paraphrase', 'Returns are free. [1]', true), false),
      pair(outcome('unanswerable', 'No.', false), outcome('unanswerable', 'No.', false), false),
    ]);
    expect(summary).toEqual({ questions: 4, readAsFollowUp: 0.5, correctAlone: 1, correctInConversation: 0.5, refusedAlone: 0.5, refusedInConversation: 1, worse: 1, better: 1 });
  });

  it('leaves the held-out sets out of tuning, and only them', () => {
    const heldOut = setNames().filter((name) => loadSet(name).heldOut);
    expect(heldOut).toEqual(['camping-fr', 'clinic-faq-en', 'driving-school-fr', 'fitness-club-en', 'garden-catalogue-de', 'help-questions-en', 'holiday-flat-de', 'language-school-de', 'outdoor-catalogue-en']);
    expect(tuningSetNames()).toEqual(setNames().filter((name) => !heldOut.includes(name)));
  });
});
