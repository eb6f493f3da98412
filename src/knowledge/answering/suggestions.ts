/**
 * What a refusal can offer instead: the titles of the records that share the question's telling
 * words ("Do you ship to Mars?" → "Which countries do you ship to?"), so that a visitor whose
 * question the records do not answer, or who asked it in words the answerer could not link to
 * them, is shown what the knowledge base does know rather than only "I couldn't find this".
 * Nothing is claimed: a suggestion is a record's own title, offered as a question to ask next,
 * and asking it is an ordinary question (docs/decisions.md, "Suggestions beside a refusal").
 */
import { LRUCache } from 'lru-cache';
import { isAnswerTypeTerm } from '../language/answer-types.js';
import type { ExpandedQuery } from '../retrieval/query-expansion.js';
import { analyzeWords } from '../retrieval/tokenize.js';
import { amongCommonest, OWN_WORD_CREDIT } from '../retrieval/unknown-words.js';
import { HEADING_PATH_SEPARATOR } from '../extraction/markdown.js';
import type { RetrievedRecord } from './types.js';

/** A record offered beside a refusal: its title, and its id for API clients. */
export interface Suggestion {
  recordId: string;
  title: string;
}

/** At most this many suggestions. */
const MAX_SUGGESTIONS = 3;

/**
 * Records are offered when together they write at least this share of the question's telling words,
 * or at least `MIN_TELLING_WORDS` of them (chosen on the tuning half: eval/suggestions.ts); see
 * `suggestionsFor` for which.
 */
const MIN_TELLING_SHARE = 0.5;
const MIN_TELLING_WORDS = 2;

/**
 * The question's telling words, each as the indexed terms that are the records' own for it (in any
 * form, misspelt, or through the owner's synonyms; empty when no record uses it): its content words
 * that are not among the language's commonest.
 */
function tellingWords(expanded: ExpandedQuery): Set<string>[] {
  const words: Set<string>[] = [];
  for (const word of expanded.words) {
    if (isAnswerTypeTerm(word.term)) continue;
    if (amongCommonest(word.surface, expanded.language)) continue;
    words.push(new Set(word.matches.filter((m) => m.credit >= OWN_WORD_CREDIT && !isAnswerTypeTerm(m.term)).map((m) => m.term)));
  }
  return words;
}

/**
 * The terms a record writes (title and text, as the index analyses them), by record id: ids are
 * unique across knowledge bases and a record's content never changes under its id, and the same few
 * records come back for a knowledge base's refusals, so each is analysed once while it is asked
 * about (~10 µs a record; a refusal's suggestions then cost ~4 µs, measured on the benchmark's FAQ).
 */
const analysed = new LRUCache<string, readonly string[]>({ max: 2048 });

function writtenTerms(record: RetrievedRecord, language: string): readonly string[] {
  const key = `${language}:${record.recordId}`;
  let terms = analysed.get(key);
  if (terms === undefined) {
    terms = [...new Set([...analyzeWords(record.title ?? '', language, 'index').terms, ...analyzeWords(record.text, language, 'index').terms])];
    analysed.set(key, terms);
  }
  return terms;
}

/** What a title says to a visitor: a help centre's heading path ends with the section's own heading. */
function shownTitle(title: string): string {
  const parts = title.split(HEADING_PATH_SEPARATOR);
  return (parts[parts.length - 1] ?? title).trim();
}

/**
 * Up to `MAX_SUGGESTIONS` of `retrieved` (best first, as retrieval ranked them) that have a title,
 * each title once, when the retrieved records together write (in title or text) at least half of
 * the question's telling words, or two of them: those that write that many alone, or when none
 * does, those that write one at least. So "Does the E48 grinder come in red?" is offered the E48,
 * not every grinder; and "I can't make it tomorrow, will I still have to pay if I cancel now?" is
 * offered the cancellation policy, which writes "cancel" but not "pay". "Which programming language
 * is best for machine learning?" shares only "machine" with an espresso machine, and is offered
 * nothing.
 */
export function suggestionsFor(expanded: ExpandedQuery, retrieved: readonly RetrievedRecord[]): Suggestion[] {
  const telling = tellingWords(expanded);
  if (!telling.some((terms) => terms.size > 0)) return [];
  // Which telling words each retrieved record writes.
  const writes = retrieved.map((record) => {
    const written = writtenTerms(record, expanded.language);
    return telling.map((terms) => written.some((term) => terms.has(term)));
  });
  const enough = (count: number) => count >= MIN_TELLING_SHARE * telling.length || count >= MIN_TELLING_WORDS;
  if (!enough(telling.filter((_, word) => writes.some((w) => w[word] === true)).length)) return [];
  const counts = writes.map((w) => w.filter(Boolean).length);
  // Records that write enough of the telling words alone are offered alone; else any that writes one.
  const strong = counts.some(enough);
  const out: Suggestion[] = [];
  const titles = new Set<string>();
  for (const [i, record] of retrieved.entries()) {
    if (out.length >= MAX_SUGGESTIONS) break;
    const title = record.title ? shownTitle(record.title) : '';
    if (!title || titles.has(title.toLowerCase()) || (strong ? !enough(counts[i] ?? 0) : (counts[i] ?? 0) === 0)) continue;
    titles.add(title.toLowerCase());
    out.push({ recordId: record.recordId, title });
  }
  return out;
}
