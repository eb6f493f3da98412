/**
 * The owner's starter questions: a few questions the widget offers before the visitor types
 * ("What does delivery cost?", "How do I return an item?"), as Intercom's, Zendesk's and Chatbase's
 * bots do. A visitor who clicks one asks it in the owner's words, which are the records' own, so the
 * built-in answerer meets it at its best; a visitor who does not still sees what the bot can answer
 * (docs/decisions.md, "Starter questions").
 */
import { starterQuestionLimits } from '../sdk/starter-questions.js';
import { checkedPhrase, distinctIgnoringCase, fieldProblem } from './owner-phrases.js';

export { starterQuestionLimits };

/**
 * The questions as they are kept: each trimmed, its spaces collapsed and in NFC; a question given
 * twice (ignoring case) kept once, in the order given. Refused (422, naming the place) when the value
 * is not an array of strings, holds too many, or a question is empty, too long, holds a control
 * character or no letter or digit. Null clears them.
 */
export function checkedStarterQuestions(raw: unknown): string[] {
  if (raw === null || raw === undefined) return [];
  if (!Array.isArray(raw)) throw fieldProblem('starterQuestions', '', 'must be an array of questions');
  if (raw.length > starterQuestionLimits.maxQuestions) throw fieldProblem('starterQuestions', '', `must hold at most ${starterQuestionLimits.maxQuestions} questions`);
  return distinctIgnoringCase(raw.map((value: unknown, i) => checkedPhrase(value, 'starterQuestions', `/${i}`, starterQuestionLimits.maxChars)));
}
