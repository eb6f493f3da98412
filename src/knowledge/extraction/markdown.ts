import type { Draft } from './classify.js';
import { cleanInline, stripComments } from './markdown-inline.js';
import { isBlank, joinLines, questionRest, splitQa } from './qa-pairs.js';
import { truncate } from './split.js';

export interface Section {
  /** Heading texts from the top level down to this section's heading. */
  path: string[];
  heading: string | undefined;
  level: number;
  lines: string[];
  /** literal[i]: lines[i] is code-block content. */
  literal: boolean[];
}

const ATX = /^ {0,3}(#{1,6})(?=[ \t]|$)/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const LIST_ITEM = /^([ \t]*)([*+-]|\d{1,9}[.)])[ \t]+/;
const LINK_DEFINITION = /^ {0,3}\[[^[\]\n]{1,999}\]:[ \t]*\S/;

/** Where the content starts once a leading `---` … `---` (or `...`) YAML block is skipped. */
function contentStart(lines: readonly string[]): number {
  if (lines.length === 0 || (lines[0] as string).trimEnd() !== '---') return 0;
  for (let k = 1; k < lines.length; k++) {
    const l = (lines[k] as string).trimEnd();
    if (l === '---' || l === '...') return k + 1;
  }
  // Never closed: not front matter, so nothing is dropped.
  return 0;
}

function atxText(raw: string, markerLength: number): string {
  let t = raw.slice(markerLength).trim();
  // An optional closing run of `#` must be preceded by a space to count.
  let k = t.length;
  while (k > 0 && t.charCodeAt(k - 1) === 0x23) k--;
  if (k === 0) t = '';
  else if (k < t.length && (t[k - 1] === ' ' || t[k - 1] === '\t')) t = t.slice(0, k);
  return cleanInline(t).trim();
}

function isThematicBreak(raw: string): boolean {
  let mark = '';
  let count = 0;
  for (let k = 0; k < raw.length; k++) {
    const c = raw[k] as string;
    if (c === ' ' || c === '\t') continue;
    if (mark === '') {
      if (c !== '*' && c !== '-' && c !== '_') return false;
      mark = c;
    } else if (c !== mark) return false;
    count++;
  }
  return count >= 3;
}

/** Characters that can open a fence, heading, setext underline, break, table separator or link definition. */
const BLOCK_LEADS = new Set(['`', '~', '#', '=', '-', '*', '_', '|', ':', '[']);

function leadChar(line: string): string {
  for (let k = 0; k < line.length; k++) {
    const c = line[k] as string;
    if (c !== ' ' && c !== '\t') return c;
  }
  return '';
}

function isTableSeparator(raw: string): boolean {
  let pipe = false;
  let dash = false;
  for (let k = 0; k < raw.length; k++) {
    const c = raw[k];
    if (c === '|') pipe = true;
    else if (c === '-') dash = true;
    else if (c !== ':' && c !== ' ' && c !== '\t') return false;
  }
  return pipe && dash;
}

function endsWithQuestionMark(s: string): boolean {
  return s.endsWith('?') || s.endsWith('？');
}

/** Longest heading text kept in a section path (titles are cut shorter later anyway). */
export const MAX_PATH_SEGMENT = 300;

/** List indentation kept for nesting; more than this only adds white space. */
const MAX_LIST_INDENT = 8;

/**
 * Where a line's blockquote markers end (`> > text`: up to three spaces, then each `>` with one
 * space or tab after it), or 0 when it has none. Counted in code: as a pattern, `(?:>[ \t]?)+`
 * keeps a backtrack entry per marker in V8, and a line of millions of `>` overflowed its stack.
 */
function quoteMarkersEnd(line: string): number {
  let at = 0;
  while (at < 3 && line.charCodeAt(at) === 0x20) at++;
  if (line.charCodeAt(at) !== 0x3e) return 0;
  while (line.charCodeAt(at) === 0x3e) {
    at++;
    const next = line.charCodeAt(at);
    if (next === 0x20 || next === 0x09) at++;
  }
  return at;
}

/** A body line as plain text; a bold line that is a question becomes a `Q:` line for splitQa. */
function bodyLine(content: string): { text: string; plain: boolean } {
  let lead = leadChar(content);
  let rest = content;
  let plain = true;
  const quote = lead === '>' ? quoteMarkersEnd(content) : 0;
  if (quote > 0) {
    rest = content.slice(quote);
    lead = leadChar(rest);
    plain = false;
  }
  if (lead === '-' || lead === '*' || lead === '+' || (lead >= '0' && lead <= '9')) {
    const list = LIST_ITEM.exec(rest);
    if (list) {
      const marker = /\d/.test(list[2] as string) ? `${list[2]} ` : '- ';
      const indent = (list[1] as string).slice(0, MAX_LIST_INDENT);
      return { text: `${indent}${marker}${cleanInline(rest.slice(list[0].length))}`, plain: false };
    }
  }
  if (lead === '|') {
    const cells = cleanInline(rest)
      .replace(/^\s*\|/, '')
      .replace(/\|\s*$/, '')
      .trim();
    return { text: cells, plain: false };
  }
  const t = rest.trim();
  const bold = t.length > 4 && ((t.startsWith('**') && t.endsWith('**')) || (t.startsWith('__') && t.endsWith('__')));
  rest = cleanInline(rest).trimEnd();
  if (bold) {
    const inner = rest.trim();
    if (endsWithQuestionMark(inner) && questionRest(inner) === undefined) return { text: `Q: ${inner}`, plain: false };
  }
  return { text: rest, plain };
}

/** Between the headings of a section's title ("Billing › Payment methods"). */
export const HEADING_PATH_SEPARATOR = ' › ';

/** `leaf`: no sub-section follows, so a heading without body is kept as a passage of its own. */
export function sectionDrafts(section: Section, leaf: boolean): Draft[] {
  const drafts: Draft[] = [];
  const title = section.path.join(HEADING_PATH_SEPARATOR);
  const heading = section.heading ?? '';
  let first = true;
  for (const seg of splitQa(section.lines, section.literal)) {
    if (seg.kind === 'qa') {
      drafts.push({ kind: 'qa', title: seg.question, text: `${seg.question}\n${seg.answer}` });
    } else {
      const body = joinLines(seg.lines);
      if (body !== '') {
        if (first && endsWithQuestionMark(heading)) {
          drafts.push({ kind: 'qa', title: heading, text: `${heading}\n${body}` });
        } else {
          const d: Draft = { kind: 'passage', text: body };
          if (title !== '') d.title = title;
          drafts.push(d);
        }
      }
    }
    first = false;
  }
  if (drafts.length === 0 && leaf && heading !== '') {
    const d: Draft = { kind: 'passage', text: heading };
    if (title !== '') d.title = title;
    drafts.push(d);
  }
  return drafts;
}

/**
 * Markdown to drafts: one per heading section (text before the first heading
 * is a section of its own, without a title), with Q&A pairs and question
 * headings turned into `qa` drafts. Lazy: each section's drafts are yielded
 * when the next heading starts, so a caller that has seen enough stops reading.
 */
export function* extractMarkdown(text: string): Generator<Draft, void, undefined> {
  const raw = text.split('\n');
  const stack: { level: number; text: string }[] = [];
  let current: Section = { path: [], heading: undefined, level: 0, lines: [], literal: [] };
  let paraStart = 0;
  let paraPlain = true;
  let fence: { char: string; length: number } | undefined;
  const comment = { open: false };

  const push = (text: string, literal = false) => {
    // One blank line says all a run of them says; dropping the rest keeps line arrays small.
    const n = current.lines.length;
    if (text === '' && !literal && (n === 0 || (current.lines[n - 1] === '' && current.literal[n - 1] === false))) return;
    current.lines.push(text);
    current.literal.push(literal);
  };
  const breakParagraph = () => {
    paraStart = current.lines.length;
    paraPlain = true;
  };
  /** Starts the next section and returns the drafts of the one it ends. */
  const startSection = (level: number, heading: string): Draft[] => {
    const ended = sectionDrafts(current, level <= current.level);
    while (stack.length > 0 && (stack[stack.length - 1] as { level: number }).level >= level) stack.pop();
    // The path is repeated in every title below it; a 10 MB heading must not be.
    stack.push({ level, text: truncate(heading, MAX_PATH_SEGMENT) });
    current = { path: stack.map((h) => h.text).filter((h) => h !== ''), heading, level, lines: [], literal: [] };
    breakParagraph();
    return ended;
  };

  for (let k = contentStart(raw); k < raw.length; k++) {
    const line = raw[k] as string;
    if (fence) {
      const close = FENCE_CLOSE.exec(line);
      if (close && (close[1] as string)[0] === fence.char && (close[1] as string).length >= fence.length) {
        fence = undefined;
        push('');
        breakParagraph();
      } else {
        push(line.trimEnd(), true);
      }
      continue;
    }
    if (isBlank(line)) {
      push('');
      breakParagraph();
      continue;
    }
    // Most lines are prose; only run the block patterns on lines that could match one.
    if (!comment.open && BLOCK_LEADS.has(leadChar(line))) {
      const open = FENCE_OPEN.exec(line);
      if (open && !((open[1] as string)[0] === '`' && (open[2] as string).includes('`'))) {
        fence = { char: (open[1] as string)[0] as string, length: (open[1] as string).length };
        push('');
        breakParagraph();
        continue;
      }
      const atx = ATX.exec(line);
      if (atx) {
        yield* startSection((atx[1] as string).length, atxText(line, atx[0].length));
        continue;
      }
      const setext = SETEXT.exec(line);
      if (setext && paraPlain && current.lines.length > paraStart) {
        const heading = current.lines
          .slice(paraStart)
          .map((l) => l.trim())
          .join(' ');
        current.lines.length = paraStart;
        current.literal.length = paraStart;
        yield* startSection((setext[1] as string)[0] === '=' ? 1 : 2, heading);
        continue;
      }
      if (isThematicBreak(line)) {
        push('');
        breakParagraph();
        continue;
      }
      if (isTableSeparator(line) || LINK_DEFINITION.test(line)) continue;
    }
    const content = stripComments(line, comment);
    // A line that was only a comment, an image or a tag is not a paragraph break.
    if (isBlank(content)) continue;
    const body = bodyLine(content);
    if (isBlank(body.text)) continue;
    if (!body.plain || questionRest(body.text) !== undefined) paraPlain = false;
    push(body.text);
  }
  yield* sectionDrafts(current, true);
}
