/**
 * When two texts are "the same question". One definition for everything that groups
 * questions: the answer cache key, the usage recorder and the stored question hash
 * (unanswered questions), so "Price?" and "price" share a cached answer *and* count as one
 * unanswered question.
 */
import { createHash } from 'node:crypto';

/**
 * Unicode NFC (so composed and decomposed accents match), lower case, runs of
 * whitespace (Unicode `\s`, incl. no-break space) collapsed to one space,
 * trimmed, and trailing `?`, `!`, `.` dropped — together with any spaces among
 * them, so "Price ?" and "price" match and the function is idempotent.
 * Lower-casing can un-compose a few characters, hence NFC after it.
 */
export function sameQuestion(text: string): string {
  const folded = text.normalize('NFC').toLowerCase().normalize('NFC').replace(/\s+/gu, ' ');
  // A loop from the end, not /[\s?!.]+$/: that regex is quadratic on long runs of spaces and dots.
  let end = folded.length;
  while (end > 0 && TRAILING.has(folded.charAt(end - 1))) end--;
  return folded.slice(0, end).trimStart();
}

/** After collapsing, the only whitespace left is ' '. */
const TRAILING = new Set([' ', '?', '!', '.']);

/** SHA-256 (hex) of `sameQuestion(text)`: the stored, bounded-size identity of a question. */
export function questionHash(text: string): string {
  return createHash('sha256').update(sameQuestion(text), 'utf8').digest('hex');
}
