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

/**
 * `answer:v1:<ragId>:<contentVersion>:<mode>:<sha256(normalised query)>`.
 * Hashing bounds the key length whatever the query (up to 4,000 characters);
 * the readable parts are URI-encoded so none can forge a separator. The query
 * is normalised again here (idempotent), so callers cannot split the cache by
 * passing a raw query.
 */
export function answerCacheKey(ragId: string, contentVersion: string | number, normalisedQuery: string, mode: string): string {
  const digest = createHash('sha256').update(normaliseQuery(normalisedQuery), 'utf8').digest('hex');
  const part = (value: string | number) => encodeURIComponent(String(value));
  return `answer:v1:${part(ragId)}:${part(contentVersion)}:${part(mode)}:${digest}`;
}
