/**
 * The checks shared by the short texts an owner gives in lists (synonyms, starter questions): each
 * is trimmed, its spaces collapsed and put in NFC, and refused with a 422 that names its place in
 * the request body ("synonyms[2][0] must be a string.", at `/body/synonyms/2/0`).
 */
import { DomainError } from '../errors.js';

const CONTROL = /[\u0000-\u001F\u007F]/u;

/** A 422 for `field` at the JSON pointer `at` within it ("" for the field itself). */
export function fieldProblem(field: string, at: string, message: string): DomainError {
  const location = `/body/${field}${at}`;
  return new DomainError('validation_failed', `${field}${at.replaceAll('/', '.').replace(/\.(\d+)/gu, '[$1]')} ${message}.`, { errors: [{ location, message }] });
}

/**
 * `value` as it is kept: trimmed, spaces collapsed, NFC. Refused when it is not a string, holds a
 * control character or no letter or digit, or is longer than `maxChars` (code points) after trimming.
 */
export function checkedPhrase(value: unknown, field: string, at: string, maxChars: number): string {
  if (typeof value !== 'string') throw fieldProblem(field, at, 'must be a string');
  const phrase = value.normalize('NFC').trim().replace(/\s+/gu, ' ');
  if (CONTROL.test(phrase)) throw fieldProblem(field, at, 'must not contain control characters');
  if (!/[\p{L}\p{N}]/u.test(phrase)) throw fieldProblem(field, at, 'must contain a letter or a digit');
  if ([...phrase].length > maxChars) throw fieldProblem(field, at, `must be at most ${maxChars} characters after trimming`);
  return phrase;
}

/** `phrases` in their order, each kept once ignoring case (the first spelling wins). */
export function distinctIgnoringCase(phrases: readonly string[]): string[] {
  const seen = new Set<string>();
  return phrases.filter((phrase) => {
    const folded = phrase.toLowerCase();
    if (seen.has(folded)) return false;
    seen.add(folded);
    return true;
  });
}
