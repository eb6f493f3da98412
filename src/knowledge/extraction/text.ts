import type { Draft } from './classify.js';
import { isBlank, splitQa } from './qa-pairs.js';

/** Paragraphs shorter than this are joined to the next one: a lone heading-like line is rarely useful alone. */
export const MERGE_BELOW_CHARS = 200;

/** Groups lines into paragraphs separated by blank (empty or white-space-only) lines. */
export function paragraphs(lines: readonly string[]): string[] {
  const out: string[] = [];
  let start = -1;
  const flush = (end: number) => {
    if (start === -1) return;
    const p = (end - start === 1 ? (lines[start] as string) : lines.slice(start, end).join('\n')).trim();
    if (p !== '') out.push(p);
    start = -1;
  };
  for (let k = 0; k < lines.length; k++) {
    if (isBlank(lines[k] as string)) flush(k);
    else if (start === -1) start = k;
  }
  flush(lines.length);
  return out;
}

/**
 * Joins consecutive paragraphs while the text gathered so far is shorter
 * than MERGE_BELOW_CHARS and the joined text still fits in `max`.
 */
export function mergeSmall(paras: readonly string[], max: number): string[] {
  const out: string[] = [];
  let group: string[] = [];
  let length = 0;
  for (const p of paras) {
    if (group.length > 0 && (length >= MERGE_BELOW_CHARS || length + 2 + p.length > max)) {
      out.push(group.join('\n\n'));
      group = [];
      length = 0;
    }
    length += (group.length > 0 ? 2 : 0) + p.length;
    group.push(p);
  }
  if (group.length > 0) out.push(group.join('\n\n'));
  return out;
}

/**
 * Plain text (`.txt`, pasted text) to drafts: Q&A pairs, and passages of merged paragraphs.
 * Lazy per segment, so a caller that has seen enough stops before the rest is built.
 */
export function* extractText(text: string, max: number): Generator<Draft, void, undefined> {
  for (const seg of splitQa(text.split('\n'))) {
    if (seg.kind === 'qa') {
      yield { kind: 'qa', title: seg.question, text: `${seg.question}\n${seg.answer}` };
    } else {
      for (const p of mergeSmall(paragraphs(seg.lines), max)) yield { kind: 'passage', text: p };
    }
  }
}
