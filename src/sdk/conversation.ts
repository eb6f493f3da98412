/**
 * The earlier turns a client sends with a follow-up question (product.md §5):
 * at most 10, oldest first, each 1 to 2,000 characters after trimming. The
 * server keeps no conversation state, so the widget and the Playground keep the
 * turns of the open session and send the most recent ones with every question.
 */
import type { Turn } from './api-schemas.js';

export type { Turn };

export const maxConversationTurns = 10;
export const maxTurnChars = 2000;

/**
 * The turns as the API accepts them: citation markers (`[1]`) dropped from the
 * bot's answers, text trimmed and clipped to `maxTurnChars`, empty turns left
 * out, and only the most recent `maxConversationTurns`.
 */
export function recentTurns(turns: readonly Turn[]): Turn[] {
  const out: Turn[] = [];
  for (const turn of turns) {
    const text = turn.role === 'assistant' ? turn.content.replace(/ ?\[\d{1,3}\]/g, '') : turn.content;
    let content = text.trim().slice(0, maxTurnChars);
    // Never end on half of a surrogate pair (an emoji cut in two).
    if (/[\uD800-\uDBFF]$/.test(content)) content = content.slice(0, -1);
    content = content.trim();
    if (content) out.push({ role: turn.role, content });
  }
  return out.slice(-maxConversationTurns);
}
