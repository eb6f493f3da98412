/**
 * Opening PDFs for the PDF tools, with the same refusals everywhere: a file that is not a PDF
 * (415, by its `%PDF-` header, never by its name), an encrypted PDF (pdf-lib cannot decrypt, so
 * editing it would produce a broken file), a file pdf-lib cannot parse, and too many pages.
 */
import { PDFDocument } from 'pdf-lib';
import { ToolInputError } from '../types.js';
import { assertInflateBudget } from './pdf-inflate-budget.js';

/** The most pages a PDF tool reads or writes. */
export const maxPdfPages = 2000;

/** Whether the bytes start like a PDF (a few producers put junk before the header, so look at the first 1 KB). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const head = String.fromCharCode(...bytes.subarray(0, 1024));
  return head.includes('%PDF-');
}

/**
 * Refuses bytes that are not a PDF (415), and a PDF whose Flate streams would inflate past their
 * budget (413, pdf-inflate-budget.ts). `label` names the file in the message, e.g. "File 2".
 */
export function assertPdf(bytes: Uint8Array, field: string, label = 'The file'): void {
  if (bytes.length === 0) throw new ToolInputError(`${label} is empty.`, { field });
  if (!looksLikePdf(bytes)) throw new ToolInputError(`${label} is not a PDF (it does not start with %PDF-).`, { field, kind: 'unsupported_type' });
  assertInflateBudget(bytes, field, label);
}

export function encryptedError(field: string, label = 'The file'): ToolInputError {
  return new ToolInputError(`${label} is an encrypted (password-protected) PDF. Remove the password first, then try again.`, { field });
}

export function unreadableError(field: string, label = 'The file'): ToolInputError {
  return new ToolInputError(`${label} could not be read as a PDF: it is damaged or not a PDF.`, { field });
}

export function tooManyPagesError(pages: number, field: string, label = 'The PDF'): ToolInputError {
  return new ToolInputError(`${label} has ${pages} pages; this tool handles at most ${maxPdfPages}.`, { field, kind: 'too_large' });
}

/**
 * Parses a PDF for editing. Metadata is left as it was (no new Producer or dates), so that
 * saving the same input twice gives the same bytes.
 */
export async function loadPdf(bytes: Uint8Array, field = 'file', label = 'The file'): Promise<PDFDocument> {
  assertPdf(bytes, field, label);
  let doc: PDFDocument;
  try {
    // Opened despite encryption only to ask whether it is encrypted: then it is refused.
    doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  } catch {
    throw unreadableError(field, label);
  }
  if (doc.isEncrypted) throw encryptedError(field, label);
  let pages: number;
  try {
    pages = doc.getPageCount();
    // Damaged page trees (no MediaBox, kids that are not pages) fail here rather than mid-edit.
    for (const page of doc.getPages()) {
      page.getMediaBox();
      page.getRotation();
    }
  } catch {
    throw unreadableError(field, label);
  }
  // pdf-lib is lenient: a damaged file may parse as a document without a page tree.
  if (pages === 0) throw new ToolInputError(`${label} has no pages that could be read.`, { field });
  if (pages > maxPdfPages) throw tooManyPagesError(pages, field, label.replace(/^The file$/, 'The PDF'));
  return doc;
}
