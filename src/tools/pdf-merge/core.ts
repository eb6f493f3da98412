/** Joins PDFs: every page of every input, copied in order into a new document. */
import { PDFDocument } from 'pdf-lib';
import { loadPdf, maxPdfPages, tooManyPagesError } from '../shared/pdf-load.js';
import { pdfFile, savePdf } from '../shared/pdf-output.js';
import { ToolInputError, type ToolFile } from '../types.js';

export interface PdfMergeInput {
  files: Uint8Array[];
}

export interface PdfMergeOutput {
  file: ToolFile;
  pageCount: number;
}

export async function run(input: PdfMergeInput): Promise<PdfMergeOutput> {
  if (input.files.length < 2) throw new ToolInputError('Give at least two PDFs to merge.', { field: 'files' });
  if (input.files.length > 50) throw new ToolInputError('At most 50 PDFs can be merged at once.', { field: 'files' });
  // updateMetadata: false — no Producer or dates, so the same inputs give the same bytes.
  const merged = await PDFDocument.create({ updateMetadata: false });
  let total = 0;
  for (const [i, bytes] of input.files.entries()) {
    const source = await loadPdf(bytes, `files/${i}`, `File ${i + 1}`);
    total += source.getPageCount();
    if (total > maxPdfPages) throw tooManyPagesError(total, 'files', 'Together the PDFs');
    const pages = await merged.copyPages(source, source.getPageIndices());
    for (const page of pages) merged.addPage(page);
  }
  return { file: pdfFile('merged.pdf', await savePdf(merged)), pageCount: total };
}
