/**
 * What a follow-up question means in its conversation. "And how long does that take?" after
 * "Do you ship to Mexico?" is about shipping to Mexico: an elliptical question (it starts with
 * "and", "what about"…, points back with "that", "it", "there"…, or is only a few words) carries
 * over the previous question's topic by being asked together with it. A question that stands on
 * its own is left alone. Stateless: the client sends the turns (product.md §5).
 */
import type { Turn } from './types.js';

const LEAD_RE = /^\s*(?:and|also|plus|so|then|but|ok(?:ay)?|what about|how about|und|auch|also|et|mais|alors|y|e|en|ook)\b/iu;
const BACK_REFERENCE_RE =
  /\b(?:that|this|it|those|these|them|they|there|one|ones|same|das|dies|diese[rsmn]?|es|dort|dafuer|dafür|davon|ihn|sie|ça|ca|cela|ce|celui|celle|ceux|là|eso|esto|ello|esa|ese|quello|quella|dat|dit|het)\b/iu;
/** Up to this many words, a question with a back-reference is taken as a follow-up. */
const SHORT_WORDS = 8;
/** Up to this many words, any question is taken as a follow-up ("Price?", "In Canada?"). */
const FRAGMENT_WORDS = 3;
/**
 * Earlier questions a follow-up reaches back through at most: "Do you ship to Canada?" → "How
 * much is it?" → "And how long does it take?" is still about Canada, two questions back.
 */
const CHAIN_QUESTIONS = 3;

/** The visitor's questions of `conversation`, oldest first. */
function userQuestions(conversation: readonly Turn[] | undefined): string[] {
  if (!conversation) return [];
  return conversation.filter((turn) => turn.role === 'user' && turn.content.trim().length > 0).map((turn) => turn.content.trim());
}

/** Whether `question` reads as leaning on a question before it (were there one). */
function leansBack(question: string): boolean {
  const words = question.trim().split(/\s+/u).filter((w) => w.length > 0).length;
  return LEAD_RE.test(question) || words <= FRAGMENT_WORDS || (words <= SHORT_WORDS && BACK_REFERENCE_RE.test(question));
}

/** Whether `query` leans on the previous question of `conversation`. */
export function isFollowUp(query: string, conversation: readonly Turn[] | undefined): boolean {
  return userQuestions(conversation).length > 0 && leansBack(query);
}

/**
 * The text to search and answer for `query`: when it is a follow-up, asked together with the
 * questions it leans on, back to the last one that stood on its own (at most `CHAIN_QUESTIONS`).
 */
export function contextualQuery(query: string, conversation: readonly Turn[] | undefined): string {
  const questions = userQuestions(conversation);
  if (questions.length === 0 || !leansBack(query)) return query;
  const chain: string[] = [];
  for (let i = questions.length - 1; i >= 0 && chain.length < CHAIN_QUESTIONS; i--) {
    const question = questions[i] as string;
    chain.unshift(question);
    if (i === 0 || !leansBack(question)) break;
  }
  return `${chain.join(' ')} ${query.trim()}`;
}
