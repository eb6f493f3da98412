/**
 * The grounding rule for a model's answer, sentence by sentence (product.md §5, docs/decisions.md
 * "With an LLM"):
 *
 * - a sentence that carries citation markers, none of which resolves to a passage, is backed by
 *   no record: it is dropped whole, not only its markers;
 * - a sentence with at least one resolving citation stays, with its other markers removed;
 * - a sentence without any marker stays: it is usually a lead-in ("Here is how:") or continues a
 *   cited sentence (models often cite once at the end of a run of sentences).
 *
 * Whether what is left still cites anything (else the extractive answer replaces it) is the
 * answerer's check. A marker written after the full stop ("Bremen. [1]") belongs to the sentence
 * before it on the same line; at the start of a line it belongs to the line ("[4] Starts here.").
 */
import { hasCitationMarker, leadingCitationsLength, removeDanglingCitations } from './citations.js';
import { ABBREVIATION_END_RE } from './sentences.js';

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
/** A piece that is only a list enumerator ("1.", "b)"): it starts the next sentence. */
const ENUMERATOR_RE = /^(?:\d{1,3}|[A-Za-z])[.)]$/;
const ENDS_LINE_RE = /\n\s*$/;

/**
 * The sentences of a model's answer, exactly as written: joined they give `text` back. Each
 * keeps the whitespace that follows it; citation markers after its full stop on the same line
 * are its own.
 */
export function answerSentences(text: string): string[] {
  const out: string[] = [];
  for (const { segment } of segmenter.segment(text)) {
    let rest = segment;
    const last = out.length - 1;
    const prev = out[last];
    if (prev !== undefined && !ENDS_LINE_RE.test(prev)) {
      const markers = leadingCitationsLength(rest);
      if (markers > 0) {
        const spaces = /^\s*/.exec(rest.slice(markers))?.[0].length ?? 0;
        out[last] = prev + rest.slice(0, markers + spaces);
        rest = rest.slice(markers + spaces);
      }
    }
    if (!rest) continue;
    const before = out[last];
    if (before !== undefined && (rest.trim() === '' || continuesInto(before))) out[last] = before + rest;
    else out.push(rest);
  }
  return out;
}

/** A piece the sentence splitter cut after an abbreviation or an enumerator, within a line. */
function continuesInto(piece: string): boolean {
  if (ENDS_LINE_RE.test(piece)) return false;
  const trimmed = piece.trim();
  return ABBREVIATION_END_RE.test(trimmed) || ENUMERATOR_RE.test(trimmed);
}

function newlines(text: string): number {
  return text.split('\n').length - 1;
}

function trailingSpace(text: string): string {
  return /\s*$/.exec(text)?.[0] ?? '';
}

/**
 * `text` with its unsupported sentences dropped and its dangling markers removed, and how many
 * sentences were dropped. With nothing dropped the text is `removeDanglingCitations(text)`.
 */
export function dropUnsupportedSentences(text: string, sourceCount: number): { text: string; dropped: number } {
  const kept: string[] = [];
  let dropped = 0;
  for (const sentence of answerSentences(text)) {
    if (!hasCitationMarker(sentence) || hasCitationMarker(removeDanglingCitations(sentence, sourceCount))) {
      kept.push(sentence);
      continue;
    }
    dropped++;
    // Keep the line break the dropped sentence ended with, so lines and paragraphs stay apart.
    const prev = kept.at(-1);
    const trail = trailingSpace(sentence);
    if (prev !== undefined && newlines(trail) > newlines(trailingSpace(prev))) kept[kept.length - 1] = prev.trimEnd() + trail;
  }
  if (dropped === 0) return { text: removeDanglingCitations(text, sourceCount), dropped };
  return { text: removeDanglingCitations(kept.join(''), sourceCount).trimEnd(), dropped };
}
