/**
 * The owner's synonyms (knowledge/synonyms.ts) in a question: where the question writes a member
 * of a group ("Was kostet das Porto?", group "Porto" / "Versandkosten"), its words also meet the
 * records' words for every other member of the group, at full credit ("Versandkosten"), as an
 * exact word would. A member is found as written, word for word, up to case and word endings (the
 * question's analysis, stop words included: "sign up" is not "sign in"), its words in order with at
 * most two others between each ("send it back" for "send back"); a member of function words only
 * ("how much") matches nothing. A member meets the records only where they use all its
 * content words (namesMatches); a member they do not use adds nothing. A language's built-in groups
 * (language/sign-in-words.ts: "log in" / "sign in") are read the same way, beside the owner's.
 */
import type { TermStats } from '../answering/plan-options.js';
import type { SynonymGroups } from '../synonyms.js';
import type { ExpandedQuery, QueryWord } from './query-expansion.js';
import { type TermMatch, type Vocabulary, mergeMatches } from './term-matches.js';
import { analyzeWords } from './tokenize.js';
import { SIGN_IN_GROUPS } from '../language/sign-in-words.js';

/** A member as the analysis writes it. */
interface Member {
  /** Every word's term, function words included, as the question's analysis gives them. */
  readonly terms: readonly string[];
  /** Its content words' terms: what a record must use for the member to meet it. */
  readonly content: readonly string[];
  readonly group: number;
}

/** A knowledge base's synonyms analysed in one language: made once per groups array and language. */
export interface CompiledSynonyms {
  /** Members with content words, by their first term. */
  readonly byFirst: ReadonlyMap<string, readonly Member[]>;
  readonly groups: readonly (readonly Member[])[];
}

const compiled = new WeakMap<SynonymGroups, Map<string, CompiledSynonyms>>();

/**
 * `groups` analysed in `language`, or undefined when there are none. Kept per array (a stored row's
 * groups are one frozen array while the row is unchanged: adapters/storage/rows.ts).
 */
export function compiledSynonyms(owners: SynonymGroups | undefined, language: string): CompiledSynonyms | undefined {
  const groups = withBuiltIn(owners, language);
  if (groups === undefined || groups.length === 0) return undefined;
  return perArrayAndLanguage(compiled, groups, language, () => compile(groups, language));
}

/** The owner's groups and each language's built-in ones (language/sign-in-words.ts), as one array per owner's array and language. */
const combined = new WeakMap<SynonymGroups, Map<string, SynonymGroups>>();

function withBuiltIn(owners: SynonymGroups | undefined, language: string): SynonymGroups | undefined {
  const builtIn = SIGN_IN_GROUPS[language];
  if (builtIn === undefined) return owners;
  if (owners === undefined || owners.length === 0) return builtIn;
  return perArrayAndLanguage(combined, owners, language, () => [...owners, ...builtIn]);
}

/** `make()`, kept in `cache` for `groups` (by identity) and `language`. */
function perArrayAndLanguage<T>(cache: WeakMap<SynonymGroups, Map<string, T>>, groups: SynonymGroups, language: string, make: () => T): T {
  let byLanguage = cache.get(groups);
  if (byLanguage === undefined) {
    byLanguage = new Map();
    cache.set(groups, byLanguage);
  }
  let found = byLanguage.get(language);
  if (found === undefined) {
    found = make();
    byLanguage.set(language, found);
  }
  return found;
}

function compile(groups: SynonymGroups, language: string): CompiledSynonyms {
  const byFirst = new Map<string, Member[]>();
  const members = groups.map((group, g) =>
    group.map((text): Member => {
      const { terms, stops } = analyzeWords(text, language, 'query');
      return { terms, content: terms.filter((_, i) => !stops[i]), group: g };
    }),
  );
  for (const group of members) {
    for (const member of group) {
      const first = member.terms[0];
      if (first === undefined || member.content.length === 0) continue;
      const list = byFirst.get(first);
      if (list === undefined) byFirst.set(first, [member]);
      else list.push(member);
    }
  }
  return { byFirst, groups: members };
}

/** The question as analysed: every word's term and surface, function words included. */
export interface AnalysedQuestion {
  readonly terms: readonly string[];
  readonly surfaces: readonly string[];
}

/**
 * `words` with the matches the owner's synonyms add: each content word of the question that is part
 * of a member found in it meets the records' words for the group's other members. The same array
 * when no member is found.
 */
export function withOwnerSynonyms(words: readonly QueryWord[], question: AnalysedQuestion, synonyms: CompiledSynonyms, vocab: Vocabulary): readonly QueryWord[] {
  let out: QueryWord[] | undefined;
  const { terms, surfaces } = question;
  for (let i = 0; i < terms.length; i++) {
    for (const member of synonyms.byFirst.get(terms[i] as string) ?? []) {
      const at = positionsOf(member, terms, i);
      if (at === undefined) continue;
      const added = othersMatches(member, synonyms, vocab);
      if (added.length === 0) continue;
      const spanned = new Set(at.map((p) => surfaces[p] as string));
      out ??= [...words];
      for (let w = 0; w < out.length; w++) {
        const word = out[w] as QueryWord;
        if (!word.surface.split(' ').every((part) => spanned.has(part))) continue;
        out[w] = { ...word, matches: mergeMatches(word.matches, added), via: word.matches.length > 0 ? word.via : 'related' };
      }
    }
  }
  return out ?? words;
}

/** Words a visitor may put between a member's words ("send it back", "pick my order up"). */
const MAX_GAP = 2;

/**
 * Where the question writes `member` from position `start`: its words in order, each at most
 * MAX_GAP words after the one before. The positions of its words, or undefined.
 */
function positionsOf(member: Member, terms: readonly string[], start: number): number[] | undefined {
  const at = [start];
  for (let k = 1; k < member.terms.length; k++) {
    const previous = at[k - 1] as number;
    let found = -1;
    for (let p = previous + 1; p <= previous + 1 + MAX_GAP && p < terms.length; p++) {
      if (terms[p] === member.terms[k]) {
        found = p;
        break;
      }
    }
    if (found < 0) return undefined;
    at.push(found);
  }
  return at;
}

/** The records' terms for the other members of `member`'s group, at full credit: the owner says they mean the same. */
function othersMatches(member: Member, synonyms: CompiledSynonyms, vocab: Vocabulary): TermMatch[] {
  const out: TermMatch[] = [];
  for (const other of synonyms.groups[member.group] ?? []) {
    if (other === member || other.content.length === 0 || other.content.some((t) => vocab.docFreq(t) === 0)) continue;
    for (const term of other.content) if (!out.some((m) => m.term === term)) out.push({ term, credit: 1 });
  }
  return out;
}

/** An index or vocabulary that expands a question with given synonyms. */
interface ExpandsWithSynonyms extends TermStats {
  expand(query: string, synonyms?: SynonymGroups): ExpandedQuery;
}

/** `stats` as the answerer is given them: expanding with the knowledge base's synonyms, as its search did. */
export function statsWithSynonyms(stats: ExpandsWithSynonyms, synonyms: SynonymGroups | undefined): TermStats {
  return synonyms === undefined || synonyms.length === 0 ? stats : new StatsWithSynonyms(stats, synonyms);
}

class StatsWithSynonyms implements TermStats {
  constructor(
    private readonly stats: ExpandsWithSynonyms,
    private readonly synonyms: SynonymGroups,
  ) {}

  get size(): number {
    return this.stats.size;
  }

  get language(): string {
    return this.stats.language;
  }

  docFreq(term: string): number {
    return this.stats.docFreq(term);
  }

  expand(query: string): ExpandedQuery {
    return this.stats.expand(query, this.synonyms);
  }
}
