/**
 * The ways English writes signing in to an account, which mean one thing wherever they stand:
 * "I can't log in" asks what "Click 'Forgot password?' on the sign-in page" answers. WordNet keeps
 * them apart ("log" is a tree trunk or a record; "log in" and "sign in" are separate senses), so
 * without this "how do I log in" was refused by a knowledge base that writes only "sign-in".
 *
 * Read as a synonym group the owner could have written (retrieval/owner-synonyms.ts): a member is
 * found in the question with its particle ("log out" is not "log in"), and meets the records'
 * content words of the others ("sign"). Signing out is left out: its members' content words are
 * those of signing in ("sign out" meets "sign"), so "log out" would meet the sign-in page.
 */
import type { SynonymGroups } from '../synonyms.js';

/** Built-in groups per language: English only. */
export const SIGN_IN_GROUPS: Readonly<Record<string, SynonymGroups>> = {
  en: [['log in', 'login', 'log on', 'logon', 'sign in', 'signin', 'sign on']],
};
