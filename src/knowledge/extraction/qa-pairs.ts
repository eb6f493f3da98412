/**
 * Finding `Q:` / `A:` pairs in lines of text, shared by the plain-text and
 * Markdown extractors. Markdown turns `**Q:**`, `**Question:**` and bold
 * question lines into plain `Q:` lines before calling this.
 */

export type Segment = { kind: 'text'; lines: readonly string[] } | { kind: 'qa'; question: string; answer: string };

const QUESTION = /^[ \t]*(?:q|question)[ \t]*[:：][ \t]*/i;
const ANSWER = /^[ \t]*(?:a|answer)[ \t]*[:：][ \t]*/i;
// "Q: Is it free? A: Yes." on one line. Anchored with one lazy group, so linear.
const SAME_LINE_ANSWER = /^(.*?\?)[ \t]+(?:a|answer)[ \t]*[:：][ \t]*(.*)$/i;

/** Lower-cased first non-blank character code; a cheap filter before any regex runs on a line. */
function firstChar(line: string): number {
  let k = 0;
  while (k < line.length) {
    const c = line.charCodeAt(k);
    if (c !== 0x20 && c !== 0x09) return c | 0x20;
    k++;
  }
  return -1;
}

function markerRest(line: string, re: RegExp, letter: number): string | undefined {
  if (firstChar(line) !== letter) return undefined;
  const m = re.exec(line);
  return m ? line.slice(m[0].length) : undefined;
}

/** The text after a `Q:` / `Question:` marker, or undefined when the line has none. */
export function questionRest(line: string): string | undefined {
  return markerRest(line, QUESTION, 0x71);
}

function answerRest(line: string): string | undefined {
  return markerRest(line, ANSWER, 0x61);
}

export function isBlank(line: string): boolean {
  for (let k = 0; k < line.length; k++) {
    const c = line.charCodeAt(k);
    if (c !== 0x20 && c !== 0x09) return false;
  }
  return true;
}

/** Lines joined, runs of blank lines reduced to one, blank lines at the ends dropped. */
export function joinLines(lines: readonly string[]): string {
  const kept: string[] = [];
  let pendingBlank = false;
  for (const line of lines) {
    if (isBlank(line)) {
      pendingBlank = kept.length > 0;
      continue;
    }
    if (pendingBlank) kept.push('');
    pendingBlank = false;
    kept.push(line);
  }
  return kept.join('\n').trim();
}

/**
 * Splits lines into plain-text runs and Q&A pairs. A question runs from its
 * `Q:` line to the first blank line, `A:` line or line ending in `?`; the
 * answer runs from the `A:` line (or, without one, from the next non-blank
 * line) up to the next `Q:` line or the end of the lines given. A question
 * without any answer text stays plain text. `literal[i]` marks code lines,
 * which are never read as markers.
 */
export function splitQa(lines: readonly string[], literal?: readonly boolean[]): Segment[] {
  const isQuestion = (i: number) => literal?.[i] !== true && questionRest(lines[i] as string) !== undefined;
  const answerAt = (i: number) => (literal?.[i] === true ? undefined : answerRest(lines[i] as string));
  const n = lines.length;
  // Most text has no Q&A at all: one cheap pass, and the lines are returned as they are.
  let i = 0;
  while (i < n && !isQuestion(i)) i++;
  if (i === n) return n === 0 ? [] : [{ kind: 'text', lines }];
  const segments: Segment[] = [];
  let text: string[] = lines.slice(0, i);
  const flushText = () => {
    if (text.length > 0) segments.push({ kind: 'text', lines: text });
    text = [];
  };
  while (i < n) {
    const rest = literal?.[i] === true ? undefined : questionRest(lines[i] as string);
    if (rest === undefined) {
      text.push(lines[i] as string);
      i++;
      continue;
    }
    const start = i;
    const question: string[] = [];
    const answer: string[] = [];
    const inline = SAME_LINE_ANSWER.exec(rest);
    i++;
    if (inline) {
      question.push(inline[1] as string);
      answer.push(inline[2] as string);
    } else {
      question.push(rest);
      while (i < n) {
        const l = lines[i] as string;
        // Once the question has its "?", the next line is the answer even without "A:".
        if ((question[question.length - 1] as string).trimEnd().endsWith('?')) break;
        if (isBlank(l) || answerAt(i) !== undefined || isQuestion(i)) break;
        question.push(l.trim());
        i++;
      }
      let j = i;
      while (j < n && isBlank(lines[j] as string)) j++;
      const a = j < n ? answerAt(j) : undefined;
      if (a !== undefined) {
        answer.push(a);
        i = j + 1;
      } else {
        i = j;
      }
    }
    while (i < n && !isQuestion(i)) {
      answer.push(lines[i] as string);
      i++;
    }
    const q = question.join(' ').trim();
    const a = joinLines(answer);
    if (q !== '' && a !== '') {
      flushText();
      segments.push({ kind: 'qa', question: q, answer: a });
    } else {
      for (let k = start; k < i; k++) text.push(lines[k] as string);
    }
  }
  flushText();
  return segments;
}
