/**
 * The owner's synonyms: groups of words or phrases that mean the same to this knowledge base's
 * visitors ("Porto", "Versandkosten"; "sign up", "register", "create an account"). A question
 * word of a group meets the records' words for every other member of it (retrieval/owner-synonyms.ts),
 * as search services let their owners say (Algolia's and Meilisearch's multi-way synonyms, QnA
 * Maker's alterations): the built-in answerer links words by form, by WordNet in English and by
 * a few closed lists, not by meaning, and the unanswered questions of the usage report show the
 * owner which words their visitors use that the records do not (docs/decisions.md, "The owner's synonyms").
 */
import { DomainError } from '../errors.js';
import type { SynonymGroups } from '../sdk/api-schemas.js';

/** Groups of two or more words or phrases meaning the same, each as the owner typed it (trimmed, spaces collapsed); stored rows' are frozen. */
export type { SynonymGroups };

export const synonymLimits = {
  /** Groups per knowledge base. */
  maxGroups: 100,
  /** Words or phrases per group. */
  maxTermsPerGroup: 10,
  /** Characters of one word or phrase, after trimming. */
  maxTermChars: 50,
} as const;

const CONTROL = /[\u0000-\u001F\u007F]/u;

/**
 * The groups as they are kept: each member trimmed, its spaces collapsed and in NFC; a member a
 * group repeats (ignoring case) kept once. Refused (422, naming the place) when a value is not an
 * array of arrays of strings, a group has fewer than two distinct members or too many, a member is
 * empty, too long, holds a control character or no letter or digit, or there are too many groups.
 * Null clears them.
 */
export function checkedSynonyms(raw: unknown): SynonymGroups {
  if (raw === null || raw === undefined) return [];
  if (!Array.isArray(raw)) throw problem('', 'must be an array of groups, each an array of words or phrases');
  if (raw.length > synonymLimits.maxGroups) throw problem('', `must hold at most ${synonymLimits.maxGroups} groups`);
  return raw.map((group: unknown, g) => {
    if (!Array.isArray(group)) throw problem(`/${g}`, 'must be an array of words or phrases');
    if (group.length > synonymLimits.maxTermsPerGroup) throw problem(`/${g}`, `must hold at most ${synonymLimits.maxTermsPerGroup} words or phrases`);
    const members: string[] = [];
    const seen = new Set<string>();
    group.forEach((value: unknown, t) => {
      const at = `/${g}/${t}`;
      if (typeof value !== 'string') throw problem(at, 'must be a string');
      const member = value.normalize('NFC').trim().replace(/\s+/gu, ' ');
      if (CONTROL.test(member)) throw problem(at, 'must not contain control characters');
      if (!/[\p{L}\p{N}]/u.test(member)) throw problem(at, 'must contain a letter or a digit');
      if ([...member].length > synonymLimits.maxTermChars) throw problem(at, `must be at most ${synonymLimits.maxTermChars} characters after trimming`);
      const folded = member.toLowerCase();
      if (seen.has(folded)) return;
      seen.add(folded);
      members.push(member);
    });
    if (members.length < 2) throw problem(`/${g}`, 'must hold at least two different words or phrases');
    return members;
  });
}

function problem(at: string, message: string): DomainError {
  const location = `/body/synonyms${at}`;
  return new DomainError('validation_failed', `synonyms${at.replaceAll('/', '.').replace(/\.(\d+)/gu, '[$1]')} ${message}.`, { errors: [{ location, message }] });
}
