/**
 * HTML (`.html`, `.htm`): the main content as text, split at headings into sections exactly like
 * Markdown (markdown.ts `sectionDrafts`: heading paths as titles, `Q:`/`A:` pairs and question
 * headings as `qa`). Parsed with htmlparser2's streaming tokenizer (no DOM is built), in chunks,
 * so that a caller that has seen enough stops reading the rest of the file.
 */
import { Parser } from 'htmlparser2';
import { DomainError } from '../../errors.js';
import { lineColumn } from '../../text-position.js';
import type { Draft } from './classify.js';
import { MAX_PATH_SEGMENT, type Section, sectionDrafts } from './markdown.js';
import { truncate } from './split.js';

/** Elements whose whole content is dropped: code, styling, navigation and page furniture. */
const DROPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'nav',
  'aside',
  'svg',
  'math',
  'iframe',
  'object',
  'canvas',
  'select',
  'button',
  'dialog',
  // Form controls and their captions: what a visitor types into is no knowledge.
  'label',
  'legend',
  'textarea',
  'option',
  'datalist',
  'output',
]);
/**
 * Forms are dropped whole (search boxes, newsletter sign-ups, contact forms), except one right under
 * `<body>`: some frameworks (ASP.NET Web Forms) wrap the whole page in one, and its content counts.
 */
const PAGE_FORM_PARENTS = new Set(['body', 'html']);
/** Page header and footer: dropped unless inside the content (an article's own header stays). */
const FURNITURE = new Set(['header', 'footer']);
const CONTENT = new Set(['main', 'article', 'section']);
/** Elements that start and end a line of text. */
const BLOCK = new Set([
  'address',
  'article',
  'blockquote',
  'body',
  'caption',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'form',
  'hr',
  'html',
  'li',
  'main',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'ul',
]);
/** Blocks after which a blank line separates paragraphs. */
const PARAGRAPH = new Set(['p', 'blockquote', 'pre', 'table', 'ul', 'ol', 'dl', 'figure', 'details', 'hr', 'address']);
const HEADING = /^h([1-6])$/;

const CHUNK = 64 * 1024;

/**
 * Deepest nesting of open elements the extractor follows. htmlparser2 keeps its open elements in
 * an array it shifts and searches at every tag, so a file of a million unclosed `<b>` costs time
 * quadratic in its depth (80,000 took 0.8 s, a 10 MB file would take the whole ingestion time
 * limit); real pages, broken ones included, stay far below this.
 */
export const MAX_HTML_DEPTH = 512;

interface Open {
  name: string;
  /** The element starts a dropped subtree. */
  drops: boolean;
  /** The element is `<main>` or has `role="main"`. */
  main: boolean;
}

/** Builds sections from the parser's events. */
class HtmlSections {
  private readonly stack: Open[] = [];
  private dropDepth = 0;
  private contentDepth = 0;
  private mainDepth = 0;
  private preDepth = 0;
  private line = '';
  private heading: { level: number; text: string } | undefined;
  private readonly headings: { level: number; text: string }[] = [];
  private current: Section = { path: [], heading: undefined, level: 0, lines: [], literal: [] };
  /** Drafts of ended sections, not yet handed out. */
  readonly ready: Draft[] = [];
  /** Whether a `<main>` (or role="main") element was seen: then only its content counts. */
  private sawMain = false;
  private mainSections: Draft[] = [];
  private otherSections: Draft[] = [];

  /** Open elements, for the depth limit. */
  get depth(): number {
    return this.stack.length;
  }

  open(name: string, attributes: Record<string, string>): void {
    const hidden = 'hidden' in attributes || attributes['aria-hidden'] === 'true';
    const parent = this.stack[this.stack.length - 1]?.name;
    const form = name === 'form' && (attributes['role'] === 'search' || !PAGE_FORM_PARENTS.has(parent ?? 'body'));
    const drops = DROPPED.has(name) || hidden || form || (FURNITURE.has(name) && this.contentDepth === 0);
    const main = name === 'main' || attributes['role'] === 'main';
    this.stack.push({ name, drops, main });
    if (drops) this.dropDepth++;
    if (CONTENT.has(name)) this.contentDepth++;
    if (main) {
      if (this.mainDepth === 0) this.endSection(0, '');
      this.mainDepth++;
      this.sawMain = true;
    }
    if (this.dropDepth > 0) return;
    const h = HEADING.exec(name);
    if (h) {
      this.flushLine();
      this.heading = { level: Number(h[1]), text: '' };
      return;
    }
    if (name === 'br') this.flushLine();
    else if (BLOCK.has(name)) this.flushLine();
    if (name === 'pre') this.preDepth++;
    if (name === 'li') this.line = '- ';
    else if ((name === 'td' || name === 'th') && this.line.trim() !== '') this.line += ' | ';
    else if (name === 'img' && attributes['alt']) this.text(` ${attributes['alt']} `);
  }

  close(name: string): void {
    // htmlparser2 closes every element it opened, implied ends included, so the stack matches.
    const top = this.stack.pop();
    if (!top) return;
    if (this.dropDepth === 0) {
      const h = HEADING.exec(name);
      if (h && this.heading) {
        const text = this.heading.text.replace(/\s+/g, ' ').trim();
        this.heading = undefined;
        this.endSection(Number(h[1]), text);
      } else if (BLOCK.has(name) || name === 'br') {
        this.flushLine();
        if (PARAGRAPH.has(name)) this.blank();
      }
      if (name === 'pre') this.preDepth--;
    }
    if (top.drops) this.dropDepth--;
    if (CONTENT.has(top.name)) this.contentDepth--;
    if (top.main) {
      // The main content's last section is still its own.
      if (this.mainDepth === 1) this.endSection(0, '');
      this.mainDepth--;
    }
  }

  text(data: string): void {
    if (this.dropDepth > 0) return;
    if (this.heading) {
      this.heading.text += data;
      return;
    }
    if (this.preDepth > 0) {
      const parts = data.split('\n');
      this.line += parts[0];
      for (let k = 1; k < parts.length; k++) {
        this.pushLine(this.line, true);
        this.line = parts[k] as string;
      }
      return;
    }
    this.line += data.replace(/\s+/g, ' ');
  }

  private flushLine(): void {
    const t = this.preDepth > 0 ? this.line.trimEnd() : this.line.replace(/\s+/g, ' ').trim();
    this.line = '';
    if (t === '' || t === '-') return;
    this.pushLine(t, this.preDepth > 0);
  }

  private pushLine(text: string, literal: boolean): void {
    this.current.lines.push(text);
    this.current.literal.push(literal);
  }

  private blank(): void {
    const n = this.current.lines.length;
    if (n > 0 && this.current.lines[n - 1] !== '') this.pushLine('', false);
  }

  /** Ends the current section; a level above 0 starts the heading's section, 0 an untitled one. */
  private endSection(level: number, heading: string): void {
    this.flushLine();
    const ended = sectionDrafts(this.current, level === 0 || level <= this.current.level);
    (this.mainDepth > 0 ? this.mainSections : this.otherSections).push(...ended);
    if (level === 0) {
      this.headings.length = 0;
      this.current = { path: [], heading: undefined, level: 0, lines: [], literal: [] };
      return;
    }
    while (this.headings.length > 0 && (this.headings[this.headings.length - 1] as { level: number }).level >= level) this.headings.pop();
    this.headings.push({ level, text: truncate(heading, MAX_PATH_SEGMENT) });
    this.current = { path: this.headings.map((h) => h.text).filter((h) => h !== ''), heading, level, lines: [], literal: [] };
  }

  /** Drafts that can be handed out now: with a `<main>`, only its own, once it is known there is one. */
  take(): Draft[] {
    if (this.sawMain) {
      const out = this.mainSections;
      this.mainSections = [];
      this.otherSections = [];
      return out;
    }
    return [];
  }

  finish(): Draft[] {
    this.endSection(0, '');
    const out = this.sawMain ? this.mainSections : this.otherSections;
    this.mainSections = [];
    this.otherSections = [];
    return out;
  }
}

/**
 * HTML to drafts. With a `<main>` element (or `role="main"`), only its content counts; without
 * one, the whole body, less the dropped elements. Lazy once a `<main>` has been seen.
 */
export function* extractHtml(text: string): Generator<Draft, void, undefined> {
  const sections = new HtmlSections();
  const parser = new Parser(
    {
      onopentag: (name, attributes) => {
        if (sections.depth >= MAX_HTML_DEPTH) {
          const where = lineColumn(text, parser.startIndex);
          throw new DomainError(
            'too_deeply_nested',
            `The HTML nests elements more than ${MAX_HTML_DEPTH} levels deep (line ${where.line}, column ${where.column}).`,
            { ...where, maxDepth: MAX_HTML_DEPTH },
          );
        }
        sections.open(name, attributes);
      },
      onclosetag: (name) => sections.close(name),
      ontext: (data) => sections.text(data),
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  for (let at = 0; at < text.length; at += CHUNK) {
    parser.write(text.slice(at, at + CHUNK));
    yield* sections.take();
  }
  parser.end();
  yield* sections.take();
  yield* sections.finish();
}
