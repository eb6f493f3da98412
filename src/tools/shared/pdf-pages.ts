/**
 * The page-range grammar of the PDF tools: `1-3,5,8-` (a range, a page, from a page to the end;
 * `-4` means from the first page). Pages are 1-based, as people count them.
 */
import { ToolInputError } from '../types.js';
import { pagesLabel } from './pdf-output.js';

export interface PageRange {
  /** First page, 1-based. */
  from: number;
  /** Last page, 1-based, inclusive. */
  to: number;
}

const rangePattern = /^(\d*)\s*(-)?\s*(\d*)$/;

export function pageMissing(page: number, pageCount: number, field: string): ToolInputError {
  if (page < 1) return new ToolInputError('Page numbers start at 1.', { field });
  return new ToolInputError(`Page ${page} does not exist: the PDF has ${pagesLabel(pageCount)}.`, { field });
}

/** Checks one 1-based page number against the document. */
export function checkPage(page: number, pageCount: number, field: string): void {
  if (!Number.isInteger(page) || page < 1 || page > pageCount) throw pageMissing(page, pageCount, field);
}

/** The ranges of a page-range text, in the order written, checked against the page count. */
export function parsePageRanges(text: string, pageCount: number, field: string): PageRange[] {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.every((part) => part === '')) throw new ToolInputError('Give at least one page or range, e.g. "1-3,5".', { field });
  return parts
    .filter((part) => part !== '')
    .map((part) => {
      const match = rangePattern.exec(part);
      if (!match || (match[1] === '' && match[3] === '')) {
        throw new ToolInputError(`"${part.slice(0, 40)}" is not a page or range (write e.g. 3, 1-3 or 8-).`, { field });
      }
      const [, first = '', dash, last = ''] = match;
      const from = first === '' ? 1 : Number(first);
      const to = dash ? (last === '' ? pageCount : Number(last)) : from;
      checkPage(from, pageCount, field);
      checkPage(to, pageCount, field);
      if (to < from) throw new ToolInputError(`The range ${from}-${to} runs backwards; write ${to}-${from}.`, { field });
      return { from, to };
    });
}

/** The 0-based page indices a range covers. */
export function rangeIndices({ from, to }: PageRange): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from - 1 + i);
}

/** The set of 0-based indices selected by an optional range text (all pages when it is empty). */
export function selectedIndices(text: string | undefined, pageCount: number, field: string): number[] {
  if (text === undefined || text.trim() === '') return Array.from({ length: pageCount }, (_, i) => i);
  const chosen = new Set(parsePageRanges(text, pageCount, field).flatMap(rangeIndices));
  return [...chosen].sort((a, b) => a - b);
}

/** `1-3`, `5`: a range as it appears in file names. */
export function rangeLabel({ from, to }: PageRange): string {
  return from === to ? `${from}` : `${from}-${to}`;
}
