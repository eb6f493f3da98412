/**
 * The built-in grounded answerer (product.md §5): quotes the sentences that answer the question,
 * cites them, and abstains when the records do not cover it. Faithful by construction: every
 * word of a grounded answer, except the `[n]` markers, is copied from a cited record.
 */
import { type ExtractiveOptions, planResolved, resolveOptions, type ScoredUnit } from './plan.js';
import { type Answer, type Citation, NOT_FOUND_ANSWER, type RetrievedRecord } from './types.js';

/** A record this short is cited whole: the reader gets its full context at no cost. */
const WHOLE_PASSAGE_CHARS = 300;

/** Cuts text to `max` characters at a word boundary, marking the cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, Math.max(1, max - 1));
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function notFound(): Answer {
  return { answer: NOT_FOUND_ANSWER, grounded: false, sources: [] };
}

export function answerExtractively(query: string, retrieved: readonly RetrievedRecord[], options?: ExtractiveOptions): Answer {
  const o = resolveOptions(options);
  const plan = planResolved(query, retrieved, o);
  if (!plan.grounded || plan.selected.length === 0) return notFound();

  // Records in order of first selection (most relevant first), their units in document order.
  const groups = new Map<number, ScoredUnit[]>();
  for (const u of plan.selected) {
    const list = groups.get(u.record) ?? [];
    list.push(u);
    groups.set(u.record, list);
  }
  const parts: string[] = [];
  const sources: Citation[] = [];
  for (const [recordIndex, units] of groups) {
    const record = plan.records[recordIndex] as RetrievedRecord;
    units.sort((a, b) => a.unit.start - b.unit.start);
    const quoted = units.map((u) => u.unit.text).join(' ');
    sources.push({
      sourceName: record.sourceName,
      recordId: record.recordId,
      passage: record.text.length <= WHOLE_PASSAGE_CHARS ? record.text : quoted,
      score: record.score,
    });
    // Only the first selected unit can exceed the budget (a very long sentence); clip it.
    parts.push(`${clip(quoted, o.maxChars)} [${sources.length}]`);
  }
  return { answer: parts.join(' '), grounded: true, sources };
}
