/**
 * Starter questions as a widget offers them (docs/widget.md): the limits the service keeps an
 * owner's to (src/knowledge/starter-questions.ts refuses more with a 422), and the tidying of
 * questions that do not go through it: a page's own (`data-starter-questions`) and the records'
 * questions the dashboard offers ("Take from your records"). Shared by the service, the widget and
 * the dashboard, so all three hold the same limits.
 */
export const starterQuestionLimits = {
  /** Questions per knowledge base: a widget shows them all at once. */
  maxQuestions: 5,
  /** Characters of one question, after trimming: a button's worth. */
  maxChars: 120,
} as const;

/**
 * Up to `room` of `candidates` in their order, spaces collapsed, leaving out blanks, questions
 * longer than the limit and repeats (ignoring case), also of the questions in `have`.
 */
export function offeredQuestions(candidates: Iterable<string>, room: number = starterQuestionLimits.maxQuestions, have: readonly string[] = []): string[] {
  const seen = new Set(have.map((q) => q.toLowerCase()));
  const out: string[] = [];
  for (const candidate of candidates) {
    if (out.length >= room) break;
    const question = candidate.trim().replace(/\s+/g, ' ');
    if (!question || [...question].length > starterQuestionLimits.maxChars || seen.has(question.toLowerCase())) continue;
    seen.add(question.toLowerCase());
    out.push(question);
  }
  return out;
}
