/**
 * Citation markers in answer text: `[1]`, `[1, 2]`, `[1-3]`, `[1][2]` and the full-width
 * `【1】` some models emit. Used to check the extractive answer and to clean LLM output, where
 * a marker that points at no source must not reach the user.
 */

// Optional horizontal space before the marker, so removing it does not leave "word ." behind.
// Every part is bounded, so a marker is never longer than MAX_MARKER_LENGTH: the streaming
// filter relies on that to know when held text can no longer become a marker.
const ITEM = '\\d{1,6}(?:[ \\t]{0,2}[-–][ \\t]{0,2}\\d{1,6})?';
const MARKER_RE = new RegExp(
  `([ \\t]{0,8})([[【])[ \\t]{0,2}(${ITEM}(?:[ \\t]{0,2}[,，;][ \\t]{0,2}${ITEM}){0,19})[ \\t]{0,2}([\\]】])`,
  'g',
);
/** An upper bound on the length of anything MARKER_RE matches. */
export const MAX_MARKER_LENGTH = 8 + 1 + 2 + 20 * (2 + 1 + 2 + 17) + 2 + 1;
const ITEM_SPLIT_RE = /[ \t]*[,，;][ \t]*/;
const RANGE_RE = /^(\d+)[ \t]*[-–][ \t]*(\d+)$/;
// A range longer than this is not a citation (nor worth expanding).
const MAX_RANGE = 50;

/** The source numbers an item (`3` or `2-4`) refers to; empty when it is not a sane reference. */
function itemNumbers(item: string): number[] {
  const range = RANGE_RE.exec(item);
  if (!range) return [Number(item)];
  const lo = Number(range[1]);
  const hi = Number(range[2]);
  if (hi < lo || hi - lo > MAX_RANGE) return [];
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
}

function isValidItem(item: string, sourceCount: number): boolean {
  const nums = itemNumbers(item);
  return nums.length > 0 && nums.every((n) => Number.isInteger(n) && n >= 1 && n <= sourceCount);
}

/**
 * Removes citation markers (or the items inside a list marker) that do not refer to a source
 * 1…sourceCount, and the space they leave. Valid markers are kept as written. Repeats until
 * nothing changes, because a removal can join the text around it into a new marker
 * ("【9 [0]】" → "【9】"); every pass that changes anything removes digits, so it ends.
 */
export function removeDanglingCitations(text: string, sourceCount: number): string {
  let current = text;
  for (;;) {
    const next = removeDanglingOnce(current, sourceCount);
    if (next === current) return next;
    current = next;
  }
}

function removeDanglingOnce(text: string, sourceCount: number): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(MARKER_RE)) {
    const [whole, space = '', open = '[', list = '', close = ']'] = m;
    const at = m.index;
    const items = list.split(ITEM_SPLIT_RE);
    const kept = items.filter((item) => isValidItem(item, sourceCount));
    if (kept.length === items.length) continue;
    out += text.slice(last, at);
    last = at + whole.length;
    if (kept.length > 0) {
      out += `${space}${open}${kept.join(', ')}${close}`;
      continue;
    }
    // Removed entirely. At the start of a line, also drop the space that followed the marker.
    const lineStart = at === 0 || text[at - 1] === '\n';
    if (lineStart && space === '') {
      while (text[last] === ' ' || text[last] === '\t') last++;
    }
    // "word[9]next" → "word next", not "wordnext".
    if (space === '' && /[\p{L}\p{N}]/u.test(text[at - 1] ?? '') && /[\p{L}\p{N}]/u.test(text[last] ?? '')) out += ' ';
  }
  return out + text.slice(last);
}

/** Whether `text` holds a citation marker, whether or not it resolves. */
export function hasCitationMarker(text: string): boolean {
  return new RegExp(MARKER_RE.source).test(text);
}

/** How many characters of citation markers (with the spaces between them) `text` starts with: "[1] [2] Next" → 7. */
export function leadingCitationsLength(text: string): number {
  const sticky = new RegExp(MARKER_RE.source, 'y');
  let end = 0;
  while (sticky.exec(text)) end = sticky.lastIndex;
  return end;
}

/** Distinct source numbers cited in `text`, in order of first appearance (ranges expanded). */
export function citedIndices(text: string): number[] {
  const seen = new Set<number>();
  for (const m of text.matchAll(MARKER_RE)) {
    for (const item of (m[3] ?? '').split(ITEM_SPLIT_RE)) {
      for (const n of itemNumbers(item)) if (Number.isInteger(n)) seen.add(n);
    }
  }
  return [...seen];
}
