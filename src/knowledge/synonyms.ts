/**
 * The owner's synonyms: groups of words or phrases that mean the same to this knowledge base's
 * visitors ("Porto", "Versandkosten"; "sign up", "register", "create an account"). A question
 * word of a group meets the records' words for every other member of it (retrieval/owner-synonyms.ts),
 * as search services let their owners say (Algolia's and Meilisearch's multi-way synonyms, QnA
 * Maker's alterations): the built-in answerer links words by form, by WordNet in English and by
 * a few closed lists, not by meaning, and the unanswered questions of the usage report show the
 * owner which words their visitors use that the records do not (docs/decisions.md, "The owner's synonyms").
 */
import { checkedPhrase, distinctIgnoringCase, fieldProblem } from './owner-phrases.js';
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

/**
 * The groups as they are kept: each member trimmed, its spaces collapsed and in NFC; a member a
 * group repeats (ignoring case) kept once. Refused (422, naming the place) when a value is not an
 * array of arrays of strings, a group has fewer than two distinct members or too many, a member is
 * empty, too long, holds a control character or no letter or digit, or there are too many groups.
 * Null clears them.
 */
export function checkedSynonyms(raw: unknown): SynonymGroups {
  if (raw === null || raw === undefined) return [];
  if (!Array.isArray(raw)) throw fieldProblem('synonyms', '', 'must be an array of groups, each an array of words or phrases');
  if (raw.length > synonymLimits.maxGroups) throw fieldProblem('synonyms', '', `must hold at most ${synonymLimits.maxGroups} groups`);
  return raw.map((group: unknown, g) => {
    if (!Array.isArray(group)) throw fieldProblem('synonyms', `/${g}`, 'must be an array of words or phrases');
    if (group.length > synonymLimits.maxTermsPerGroup) throw fieldProblem('synonyms', `/${g}`, `must hold at most ${synonymLimits.maxTermsPerGroup} words or phrases`);
    const members = distinctIgnoringCase(group.map((value: unknown, t) => checkedPhrase(value, 'synonyms', `/${g}/${t}`, synonymLimits.maxTermChars)));
    if (members.length < 2) throw fieldProblem('synonyms', `/${g}`, 'must hold at least two different words or phrases');
    return members;
  });
}
