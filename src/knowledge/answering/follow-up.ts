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

function lastUserTurn(conversation: readonly Turn[] | undefined): Turn | undefined {
  if (!conversation) return undefined;
  for (let i = conversation.length - 1; i >= 0; i--) {
    const turn = conversation[i] as Turn;
    if (turn.role === 'user' && turn.content.trim().length > 0) return turn;
  }
  return undefined;
}

/** Whether `query` leans on the previous question of `conversation`. */
export function isFollowUp(query: string, conversation: readonly Turn[] | undefined): boolean {
  if (!lastUserTurn(conversation)) return false;
  const words = query.trim().split(/\s+/u).filter((w) => w.length > 0).length;
  return LEAD_RE.test(query) || words <= FRAGMENT_WORDS || (words <= SHORT_WORDS && BACK_REFERENCE_RE.test(query));
}

/** The text to search and answer for `query`: with the previous question's topic when it is a follow-up. */
export function contextualQuery(query: string, conversation: readonly Turn[] | undefined): string {
  const previous = lastUserTurn(conversation);
  if (!previous || !isFollowUp(query, conversation)) return query;
  return `${previous.content.trim()} ${query.trim()}`;
}
