/**
 * Runs the visitor-question sets (eval/sets.ts) through the same steps as the query service:
 * the question in its conversation, retrieval from the knowledge base's index, and the built-in
 * answerer. Scores each answer against the gold records and facts.
 */
import { answerExtractively } from '../src/knowledge/answering/extractive.js';
import { type Suggestion, suggestionsFor } from '../src/knowledge/answering/suggestions.js';
import { contextualQuery } from '../src/knowledge/answering/follow-up.js';
import type { ExtractiveOptions } from '../src/knowledge/answering/plan-options.js';
import type { Answer, RetrievedRecord } from '../src/knowledge/answering/types.js';
import { KnowledgeIndex } from '../src/knowledge/retrieval/knowledge-index.js';
import type { EvalRecord } from './dataset.js';
import { rate, round, withoutMarkers } from './metrics.js';
import type { VisitorQuestion, VisitorSet } from './sets.js';

/** Records the query service hands to the answerer. */
const RETRIEVAL_DEPTH = 6;

export interface VisitorOutcome {
  set: string;
  language: string;
  question: VisitorQuestion;
  answer: Answer;
  /** All gold facts are in the answer (answerable questions). */
  complete: boolean;
  citesGold: boolean;
  /** An answer that cites a record outside the gold set. */
  citesNonGold: boolean;
  /** Every segment of the answer is copied from the record it cites. */
  verbatim: boolean;
  missingFacts: string[][];
  /** What a refusal offers instead (the query service's suggestions); empty for an answer. */
  offered: Suggestion[];
  /** A gold record is among `offered`. */
  offersGold: boolean;
}

const collapse = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** Whether every fact (any of its spellings) occurs in the answer, markers removed, ignoring case and spacing. */
function missing(answer: string, facts: readonly string[][]): string[][] {
  const text = collapse(answer.replace(/\s*\[\d+\]/g, ''));
  return facts.filter((alts) => !alts.some((alt) => text.includes(collapse(alt))));
}

/**
 * Every segment (the text before each `[n]` marker) must be made of pieces copied from source n's
 * record: the segment is cut at the punctuation an answer may add between quoted pieces
 * (— : ; , ( ) and sentence ends), and each piece must occur in the record, ignoring case and
 * spacing. A segment citing no resolvable source fails.
 */
export function segmentsVerbatim(answer: Answer, records: ReadonlyMap<string, EvalRecord>): boolean {
  const re = /([^[]*?)\s*\[(\d+)\]/g;
  let m: RegExpExecArray | null;
  let any = false;
  while ((m = re.exec(answer.answer)) !== null) {
    any = true;
    const source = answer.sources[Number(m[2]) - 1];
    const record = source ? records.get(source.recordId) : undefined;
    if (!record) return false;
    const haystack = collapse(`${record.title ?? ''}\n${record.text}`);
    const pieces = (m[1] ?? '').split(/\s*(?:—|:|;|,|\(|\)|[.!?](?:\s|$)|…)\s*/);
    for (const piece of pieces) {
      const p = collapse(piece).replace(/[.!?…]+$/, '');
      if (p.length > 0 && !haystack.includes(p)) return false;
    }
  }
  return any;
}

/**
 * Asks a question of one set's records as the query service would (ExtractiveAnswerer.complete is
 * this call); `suggest` gives what the query service offers beside a refusal of it.
 */
export type SetAsker = ((question: string, conversation?: VisitorQuestion['conversation'], options?: ExtractiveOptions) => Answer) & {
  suggest: (question: string, conversation?: VisitorQuestion['conversation']) => Suggestion[];
};

/**
 * An asker of `set`'s records, its index built once: a follow-up is searched with the turns it
 * leans on, and `options` override the answerer's defaults (the tuning sweep).
 */
export function askerOf(set: VisitorSet): SetAsker {
  const index = KnowledgeIndex.build(set.records);
  const byId = new Map(set.records.map((r) => [r.recordId, r]));
  const retrieve = (searched: string): RetrievedRecord[] =>
    index.search(searched, RETRIEVAL_DEPTH).map((h) => ({ ...(byId.get(h.recordId) as EvalRecord), score: h.score }));
  const ask = (question: string, conversation?: VisitorQuestion['conversation'], options: ExtractiveOptions = {}) =>
    answerExtractively(question, retrieve(contextualQuery(question, conversation)), { ...options, stats: index, conversation });
  const suggest = (question: string, conversation?: VisitorQuestion['conversation']) => {
    const searched = contextualQuery(question, conversation);
    return suggestionsFor(index.expand(searched), retrieve(searched));
  };
  return Object.assign(ask, { suggest });
}

/** Asks every question of `set`; `options` overrides the answerer's defaults, for the tuning sweep. */
export function runVisitorSet(set: VisitorSet, options: ExtractiveOptions = {}): VisitorOutcome[] {
  const ask = askerOf(set);
  return set.questions.map((question) => judgeAnswer(set, ask, question, question.conversation, ask(question.question, question.conversation, options)));
}

/** How `answer` to `question` (asked in `conversation`) scores against its gold records and facts. */
export function judgeAnswer(set: VisitorSet, ask: SetAsker, question: VisitorQuestion, conversation: VisitorQuestion['conversation'], answer: Answer): VisitorOutcome {
  const gold = new Set(set.goldIds.get(question.id) ?? []);
  const cited = answer.sources.map((s) => s.recordId);
  const missingFacts = answer.grounded ? missing(answer.answer, question.facts) : question.facts;
  const offered = answer.grounded ? [] : ask.suggest(question.question, conversation);
  return {
    set: set.name,
    language: set.language,
    question,
    answer,
    complete: question.type !== 'unanswerable' && answer.grounded && missingFacts.length === 0,
    citesGold: cited.some((id) => gold.has(id)),
    citesNonGold: answer.grounded && cited.some((id) => !gold.has(id)),
    verbatim: !answer.grounded || segmentsVerbatim(answer, recordsById(set)),
    missingFacts,
    offered,
    offersGold: offered.some((s) => gold.has(s.recordId)),
  };
}

const recordMaps = new WeakMap<VisitorSet, ReadonlyMap<string, EvalRecord>>();

/** `set`'s records by id, made once per set. */
function recordsById(set: VisitorSet): ReadonlyMap<string, EvalRecord> {
  let byId = recordMaps.get(set);
  if (byId === undefined) {
    byId = new Map(set.records.map((r) => [r.recordId, r]));
    recordMaps.set(set, byId);
  }
  return byId;
}

export interface VisitorSummary {
  answerable: number;
  unanswerable: number;
  /** Shares of answerable questions. */
  correctComplete: number;
  citesGold: number;
  wronglyRefused: number;
  /** Share of answered (grounded) answerable questions citing a record outside the gold set. */
  citesNonGold: number;
  /** Share of unanswerable questions refused. */
  correctlyRefused: number;
  /** Share of answers (any question) whose every segment is copied from its cited record. */
  verbatim: number;
  /**
   * Mean length, in characters without the `[n]` markers, of the answers to answerable questions
   * that were answered: "correct & complete" rewards quoting more, this keeps the cost in sight.
   */
  meanAnswerChars: number;
  /** Share of refused answerable questions offered their gold record instead (a suggestion). */
  refusedGoldOffered: number;
  /** Share of refused unanswerable questions offered something instead. */
  refusedNearTopicOffered: number;
}


export function summarizeVisitor(outcomes: readonly VisitorOutcome[]): VisitorSummary {
  const answerable = outcomes.filter((o) => o.question.type !== 'unanswerable');
  const unanswerable = outcomes.filter((o) => o.question.type === 'unanswerable');
  const answered = answerable.filter((o) => o.answer.grounded);
  const grounded = outcomes.filter((o) => o.answer.grounded);
  return {
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    correctComplete: round(rate(answerable.map((o) => o.complete))),
    citesGold: round(rate(answerable.map((o) => o.citesGold))),
    wronglyRefused: round(rate(answerable.map((o) => !o.answer.grounded))),
    citesNonGold: round(rate(answered.map((o) => o.citesNonGold))),
    correctlyRefused: round(rate(unanswerable.map((o) => !o.answer.grounded))),
    verbatim: grounded.length === 0 ? 1 : round(rate(grounded.map((o) => o.verbatim))),
    meanAnswerChars: answered.length === 0 ? 0 : Math.round(answered.reduce((sum, o) => sum + withoutMarkers(o.answer.answer).length, 0) / answered.length),
    refusedGoldOffered: round(rate(answerable.filter((o) => !o.answer.grounded).map((o) => o.offersGold))),
    refusedNearTopicOffered: round(rate(unanswerable.filter((o) => !o.answer.grounded).map((o) => o.offered.length > 0))),
  };
}
