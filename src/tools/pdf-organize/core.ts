/**
 * A new PDF from a list of page numbers of the original. Pages are copied (pdf-lib cannot put
 * the same page object twice into one page tree), so duplicates are independent copies; the
 * document information (title, author…) is carried over.
 */
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { loadPdf, maxPdfPages } from '../shared/pdf-load.js';
import { pdfFile, savePdf } from '../shared/pdf-output.js';
import { checkPage } from '../shared/pdf-pages.js';
import { ToolInputError, type ToolFile } from '../types.js';

export interface PdfOrganizeInput {
  file: Uint8Array;
  order: number[];
}

export interface PdfOrganizeOutput {
  file: ToolFile;
  pageCount: number;
  order: number[];
  /** Pages of the original that are not in the new PDF. */
  deletedPages: number[];
}

/** Copies the Info dictionary (title, author, dates) into the new document. */
function copyInfo(source: PDFDocument, target: PDFDocument): void {
  const info = source.context.lookup(source.context.trailerInfo.Info);
  if (!(info instanceof PDFDict)) return;
  const copy = target.context.obj({});
  // Only direct strings and names are copied: a reference would point into the other file.
  for (const [key, value] of info.entries()) {
    if (value instanceof PDFString || value instanceof PDFHexString || value instanceof PDFName) copy.set(key, value);
  }
  target.context.trailerInfo.Info = target.context.register(copy);
}

export async function run(input: PdfOrganizeInput): Promise<PdfOrganizeOutput> {
  const { order } = input;
  if (order.length === 0) throw new ToolInputError('List at least one page for the new PDF.', { field: 'order' });
  if (order.length > maxPdfPages) throw new ToolInputError(`The new PDF may have at most ${maxPdfPages} pages.`, { field: 'order', kind: 'too_large' });
  const source = await loadPdf(input.file);
  const pageCount = source.getPageCount();
  for (const [i, page] of order.entries()) checkPage(page, pageCount, `order/${i}`);
  const target = await PDFDocument.create({ updateMetadata: false });
  copyInfo(source, target);
  for (const page of await target.copyPages(source, order.map((n) => n - 1))) target.addPage(page);
  const kept = new Set(order);
  const deletedPages = Array.from({ length: pageCount }, (_, i) => i + 1).filter((n) => !kept.has(n));
  return { file: pdfFile('organized.pdf', await savePdf(target)), pageCount: order.length, order, deletedPages };
}
