/**
 * When two texts are "the same question". One definition for everything that groups
 * questions: the answer cache key, the usage recorder and the stored question hash
 * (unanswered questions), so "Price?" and "price" share a cached answer *and* count as one
 * unanswered question.
 */
import { createHash } from 'node:crypto';
import type { AskedQuestion } from '../../ports/storage.js';

/**
 * Unicode NFC (so composed and decomposed accents match), lower case, runs of
 * whitespace (Unicode `\s`, incl. no-break space) collapsed to one space,
 * trimmed, and trailing `?`, `!`, `.` dropped — together with any spaces among
 * them, so "Price ?" and "price" match and the function is idempotent.
 * Lower-casing can un-compose a few characters, hence NFC after it.
 */
export function sameQuestion(text: string): string {
  // Most questions are printable ASCII with single spaces: NFC leaves them as they are and the
  // only whitespace is ' ', so lower-casing is all the folding they need (every cached answer
  // and every recorded query passes here; the full path costs several times as much).
  const folded =
    PRINTABLE_ASCII.test(text) && !text.includes('  ') ? text.toLowerCase() : text.normalize('NFC').toLowerCase().normalize('NFC').replace(/\s+/gu, ' ');
  // A loop from the end, not /[\s?!.]+$/: that regex is quadratic on long runs of spaces and dots.
  let end = folded.length;
  while (end > 0 && isTrailing(folded.charCodeAt(end - 1))) end--;
  return folded.slice(0, end).trimStart();
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** After collapsing, the only whitespace left is ' ': a space, '?', '!' or '.'. */
function isTrailing(code: number): boolean {
  return code === 0x20 || code === 0x3f || code === 0x21 || code === 0x2e;
}

/**
 * The text that identifies a question asked after others: "How much is it?" after "Do you ship to
 * Canada?" is another question than after "Do you sell gift cards?". A question asked on its own is
 * its own text. The separator (U+001F) is no whitespace to `sameQuestion` and no visitor types it.
 */
export function questionInContext(question: string, askedAfter?: string): string {
  // The earlier questions folded on their own: `sameQuestion` drops end punctuation only at the very end.
  return askedAfter === undefined ? question : `${sameQuestion(askedAfter)}\u001f${question}`;
}

/** A question as the owner's lists name it: with `askedAfter` only when it is a follow-up. */
export function askedQuestion(question: string, askedAfter: string | undefined): AskedQuestion {
  return askedAfter === undefined ? { question } : { question, askedAfter };
}

/** SHA-256 (hex) of `sameQuestion(text)`: the stored, bounded-size identity of a question. */
export function questionHash(text: string): string {
  return createHash('sha256').update(sameQuestion(text), 'utf8').digest('hex');
}
