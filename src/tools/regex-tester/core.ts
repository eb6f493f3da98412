/**
 * Runs a regular expression over text. Only the page runs this (meta.api is false), in a Worker
 * it ends after limits.timeoutMs, because no check here can stop catastrophic backtracking.
 */
import { ToolInputError } from '../types.js';

export interface RegexTesterInput {
  pattern: string;
  flags?: string;
  text: string;
}

export interface RegexMatch {
  match: string;
  index: number;
  /** Numbered capture groups ($1, $2…); a group that did not take part is null. */
  groups: (string | null)[];
  namedGroups?: Record<string, string | null>;
}

export interface RegexTesterOutput {
  matchCount: number;
  /** True when the list stops at the cap. */
  truncated: boolean;
  matches: RegexMatch[];
}

const maxMatches = 1000;

function compile(pattern: string, flags: string): RegExp {
  try {
    return new RegExp(pattern, flags);
  } catch (error) {
    // The engine's own message names the problem ("Invalid regular expression: /(/: Unterminated group").
    throw new ToolInputError((error as Error).message, { field: /flag/i.test((error as Error).message) ? 'flags' : 'pattern' });
  }
}

function describe(found: RegExpExecArray): RegexMatch {
  const match: RegexMatch = { match: found[0], index: found.index, groups: found.slice(1).map((g) => g ?? null) };
  if (found.groups) match.namedGroups = Object.fromEntries(Object.entries(found.groups).map(([k, v]) => [k, v ?? null]));
  return match;
}

export function run(input: RegexTesterInput): RegexTesterOutput {
  const flags = input.flags ?? 'g';
  const regex = compile(input.pattern, flags);
  const unicode = regex.unicode || regex.flags.includes('v');
  if (!regex.global && !regex.sticky) {
    const found = regex.exec(input.text);
    return { matchCount: found ? 1 : 0, truncated: false, matches: found ? [describe(found)] : [] };
  }
  const matches: RegexMatch[] = [];
  let found: RegExpExecArray | null;
  while ((found = regex.exec(input.text)) !== null) {
    if (matches.length === maxMatches) return { matchCount: matches.length, truncated: true, matches };
    matches.push(describe(found));
    if (!regex.global) break;
    // An empty match leaves lastIndex where it was: step past it (a whole code point with u/v).
    if (found[0] === '') {
      const code = input.text.codePointAt(regex.lastIndex);
      regex.lastIndex += unicode && code !== undefined && code > 0xffff ? 2 : 1;
    }
  }
  return { matchCount: matches.length, truncated: false, matches };
}
