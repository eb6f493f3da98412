/**
 * The earlier turns of a visitor's chat, sent with a follow-up question
 * (product.md §5, docs/decisions.md "Follow-up questions"). The server keeps
 * no conversation state: the client sends the turns with every question, and
 * they are checked here as strictly as the question itself. No HTTP here.
 */
import { DomainError } from '../../errors.js';
import type { Turn } from '../answering/types.js';

/** At most this many earlier turns per question (the client keeps the most recent ones). */
export const maxConversationTurns = 10;
/** Each turn's text, after trimming. */
export const maxTurnChars = 2000;

const roles: readonly string[] = ['user', 'assistant'] satisfies Turn['role'][];

interface Problem {
  location: string;
  message: string;
}

/**
 * The turns, each with its content trimmed, oldest first; an empty list when
 * absent. Anything else — not a list, more than `maxConversationTurns`, a turn
 * that is not exactly `{role, content}`, a role other than `user`/`assistant`,
 * content empty or over `maxTurnChars` after trimming — is a validation error
 * listing every problem with its location (`<location>/3/content`).
 */
export function checkedConversation(raw: unknown, location: string): readonly Turn[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw invalid([{ location, message: 'must be an array of {role, content}' }]);
  if (raw.length > maxConversationTurns) throw invalid([{ location, message: `must have at most ${maxConversationTurns} turns` }]);
  const problems: Problem[] = [];
  const turns: Turn[] = [];
  raw.forEach((item: unknown, i) => {
    const at = `${location}/${i}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push({ location: at, message: 'must be an object {role, content}' });
      return;
    }
    const fields = item as Record<string, unknown>;
    for (const name of Object.keys(fields)) {
      if (name !== 'role' && name !== 'content') problems.push({ location: `${at}/${name}`, message: 'is not allowed (a turn has only role and content)' });
    }
    const { role, content } = fields;
    if (typeof role !== 'string' || !roles.includes(role)) problems.push({ location: `${at}/role`, message: 'must be "user" or "assistant"' });
    const text = typeof content === 'string' ? content.trim() : '';
    if (text.length === 0 || text.length > maxTurnChars) problems.push({ location: `${at}/content`, message: `must be 1 to ${maxTurnChars} characters after trimming` });
    turns.push({ role: role as Turn['role'], content: text });
  });
  if (problems.length > 0) throw invalid(problems);
  return turns;
}

function invalid(errors: Problem[]): DomainError {
  const first = errors[0] as Problem;
  return new DomainError('validation_failed', `${first.location} ${first.message}.`, { errors });
}
