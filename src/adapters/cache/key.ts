/**
 * Cache keys for answers. Two queries share an answer when they are the same
 * question after normalisation, on the same knowledge base, at the same
 * content version, in the same mode (e.g. `answer`, `search:10`).
 */
import { createHash } from 'node:crypto';

/**
 * Unicode NFC (so composed and decomposed accents match), lower case, runs of
 * whitespace (Unicode `\s`, incl. no-break space) collapsed to one space,
 * trimmed, and trailing `?`, `!`, `.` dropped — together with any spaces among
 * them, so "Price ?" and "price" match and the function is idempotent.
 * Lower-casing can un-compose a few characters, hence NFC after it.
 */
export function normaliseQuery(query: string): string {
  const text = query.normalize('NFC').toLowerCase().normalize('NFC').replace(/\s+/gu, ' ');
  // A loop from the end, not /[\s?!.]+$/: that regex is quadratic on long runs of spaces and dots.
  let end = text.length;
  while (end > 0 && TRAILING.has(text.charAt(end - 1))) end--;
  return text.slice(0, end).trimStart();
}

/** After collapsing, the only whitespace left is ' '. */
const TRAILING = new Set([' ', '?', '!', '.']);

/** Normalised queries up to this many characters go into the key as text; longer ones as their SHA-256. */
const MAX_PLAIN_QUERY = 200;

/**
 * `answer:v2:<ragId>:<contentVersion>:<mode>:q:<normalised query>` for queries of up to
 * MAX_PLAIN_QUERY characters (most are), `…:h:<sha256(normalised query)>` for longer ones, so
 * the key's length stays bounded whatever the query (up to 4,000 characters) and the common case
 * costs no hashing. Every part is URI-encoded, so none can forge a separator, and `q:`/`h:` keep
 * the two forms apart. The query is normalised here, so callers cannot split the cache by
 * passing a raw query.
 *
 * An answer that also depends on a context — the earlier turns of a follow-up, the knowledge
 * base's own fallback message — gets `:c:<sha256 of the JSON [fallbackMessage, [[role, content], …]]>`
 * appended, so two conversations never share an answer; without a context the key is as before.
 * Turns go in as sent (already trimmed by validation), not normalised: they are context, not the question.
 */
export function answerCacheKey(ragId: string, contentVersion: string | number, query: string, mode: string, context: AnswerContext = {}): string {
  const normalised = normaliseQuery(query);
  const part = (value: string | number) => encodeURIComponent(String(value));
  const head = `answer:v2:${part(ragId)}:${part(contentVersion)}:${part(mode)}`;
  const tail = contextPart(context);
  if (normalised.length <= MAX_PLAIN_QUERY) return `${head}:q:${part(normalised)}${tail}`;
  return `${head}:h:${sha256(normalised)}${tail}`;
}

/** What an answer depends on besides the question, knowledge base, content and mode. */
export interface AnswerContext {
  conversation?: readonly { role: string; content: string }[] | undefined;
  fallbackMessage?: string | null | undefined;
}

function contextPart({ conversation = [], fallbackMessage }: AnswerContext): string {
  if (conversation.length === 0 && !fallbackMessage) return '';
  const canonical = JSON.stringify([fallbackMessage || null, conversation.map((turn) => [turn.role, turn.content])]);
  return `:c:${sha256(canonical)}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
