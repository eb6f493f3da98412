/** Writes page numbers from a template such as "Page {n} of {total}" on the chosen pages. */
import { loadPdf } from '../shared/pdf-load.js';
import { pdfFile, savePdf } from '../shared/pdf-output.js';
import { selectedIndices } from '../shared/pdf-pages.js';
import { type StampPosition, assertDrawable, helvetica, stampText } from '../shared/pdf-stamp.js';
import { ToolInputError, type ToolFile } from '../types.js';

export interface PdfPageNumbersInput {
  file: Uint8Array;
  template?: string;
  position?: StampPosition;
  startAt?: number;
  fontSize?: number;
  margin?: number;
  pages?: string;
}

export interface PdfPageNumbersOutput {
  file: ToolFile;
  pageCount: number;
  numberedPages: number;
  /** The label written on the first numbered page, e.g. "Page 1 of 3". */
  firstLabel: string;
}

export function label(template: string, n: number, total: number): string {
  return template.replace(/\{n\}/g, String(n)).replace(/\{total\}/g, String(total));
}

export async function run(input: PdfPageNumbersInput): Promise<PdfPageNumbersOutput> {
  const template = input.template ?? 'Page {n} of {total}';
  if (template.trim() === '') throw new ToolInputError('Give a template, e.g. "Page {n} of {total}".', { field: 'template' });
  if (/[\r\n]/.test(template)) throw new ToolInputError('The template is one line: remove the line breaks.', { field: 'template' });
  const startAt = input.startAt ?? 1;
  if (!Number.isInteger(startAt) || startAt < 0) throw new ToolInputError('The first number must be a whole number, 0 or more.', { field: 'startAt' });
  const doc = await loadPdf(input.file);
  const font = await helvetica(doc);
  // Digits are always drawable, so checking the template with them filled in is enough.
  assertDrawable(font, label(template, 1, 1), 'template');
  const pages = doc.getPages();
  const chosen = selectedIndices(input.pages, pages.length, 'pages');
  // {total} is the last number written, so "Page 3 of 3" holds when numbering starts later.
  const total = startAt + chosen.length - 1;
  for (const [i, index] of chosen.entries()) {
    const page = pages[index];
    if (!page) continue;
    stampText(page, label(template, startAt + i, total), {
      font,
      size: input.fontSize ?? 10,
      position: input.position ?? 'bottom-center',
      margin: input.margin ?? 24,
    });
  }
  return {
    file: pdfFile('numbered.pdf', await savePdf(doc)),
    pageCount: pages.length,
    numberedPages: chosen.length,
    firstLabel: label(template, startAt, total),
  };
}
