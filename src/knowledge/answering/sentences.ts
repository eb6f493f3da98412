/**
 * Sentence splitting for the extractive answerer. ICU's sentence rules (Intl.Segmenter) know
 * about "。", "！", quotes and line breaks; they do not know English abbreviations, so a piece
 * ending in "Mr." or an initial is glued to the next one.
 */

export interface Sentence {
  /** The sentence with its whitespace collapsed: what goes into an answer. */
  text: string;
  /** Offset of the sentence in the string it was cut from; orders sentences of a record. */
  start: number;
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

// Ends of pieces that are almost never the end of a sentence.
export const ABBREVIATION_END_RE = /(?:^|[\s(])(?:\p{Lu}|[Mm]rs?|[Mm]s|[Dd]r|[Pp]rof|[Ss]t|[Ss]r|[Jj]r|vs|e\.g|i\.e|cf|approx|[Ff]ig|[Mm]t)\.$/u;

/** A list item's number or letter: "1.", "12)", "b.". */
const LIST_NUMBER = String.raw`(?:\d{1,3}|\p{Ll})[.)]`;
/** A piece that is only a list item's number. */
const LIST_MARKER_RE = new RegExp(`^${LIST_NUMBER}$`, 'u');
const LEADING_LIST_NUMBER_RE = new RegExp(`^${LIST_NUMBER}\\s+`, 'u');

/** `sentence` without the list item's number it starts with, if any ("2. Enter the email…" → "Enter the email…"). */
export function withoutListNumber(sentence: string): string {
  return sentence.replace(LEADING_LIST_NUMBER_RE, '');
}

/** Whitespace that collapsing would change inside trimmed text: any but a space, or two spaces. */
const UNCOLLAPSED_RE = /[^\S ]| {2}/;

/**
 * `text` with every run of whitespace made one space, trimmed: always a string of its own, never a
 * view of `text` (the answerer keeps these, and a record's text may be a slice of a large decoded
 * snapshot chunk). Trimmed first (the same characters as `\s`), and the replacement only when
 * something inside needs it: most record text is already collapsed, and the test and a copy cost a
 * fifth of the replacement (the answerer's record analysis, issue 14).
 */
export function collapseSpace(text: string): string {
  const trimmed = text.trim();
  return UNCOLLAPSED_RE.test(trimmed) ? trimmed.replace(/\s+/g, ' ') : ` ${trimmed}`.slice(1);
}

/**
 * A line break inside a sentence: hard-wrapped text, where the line does not end a clause and the
 * next one continues in lower case. ICU breaks at every line break, which suits lists and
 * "Price: 10" lines but not wrapped prose.
 */
function isSoftWrap(piece: string, next: string | undefined): boolean {
  return next !== undefined && /[^\n]\n[ \t]*$/.test(piece) && !/[.!?:;。！？]\s*$/.test(piece) && /^\s*\p{Ll}/u.test(next);
}

/** Sentences of `text` in order; blank pieces are dropped. `offset` is added to every `start`. */
export function splitSentences(text: string, offset = 0): Sentence[] {
  const out: Sentence[] = [];
  const segments = [...segmenter.segment(text)];
  let pendingStart = -1;
  let pending = '';
  segments.forEach((seg, i) => {
    if (pendingStart < 0) pendingStart = seg.index;
    pending += seg.segment;
    const trimmed = pending.trim();
    const next = segments[i + 1]?.segment;
    // A line break ends a sentence whatever the last word, except in wrapped prose.
    if (ABBREVIATION_END_RE.test(trimmed) && !/\n\s*$/.test(pending) && next !== undefined) return;
    if (isSoftWrap(pending, next)) return;
    // A list item's number ("1. Open the email…") belongs to the item, not alone.
    if (LIST_MARKER_RE.test(trimmed) && next !== undefined) return;
    if (trimmed.length > 0) {
      const lead = pending.length - pending.trimStart().length;
      out.push({ text: collapseSpace(trimmed), start: offset + pendingStart + lead });
    }
    pending = '';
    pendingStart = -1;
  });
  return out;
}
