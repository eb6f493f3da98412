/** Splits a PDF into one new document per page range, or per page. */
import { PDFDocument } from 'pdf-lib';
import { loadPdf, maxPdfPages } from '../shared/pdf-load.js';
import { pdfFile, savePdf } from '../shared/pdf-output.js';
import { type PageRange, parsePageRanges, rangeIndices, rangeLabel } from '../shared/pdf-pages.js';
import { ToolInputError, type ToolFile } from '../types.js';

export interface PdfSplitInput {
  file: Uint8Array;
  mode?: 'ranges' | 'every-page';
  ranges?: string;
}

export interface PdfSplitOutput {
  files: ToolFile[];
  /** Pages of the input. */
  pageCount: number;
  parts: { name: string; pageCount: number }[];
}

const maxWrittenPages = 5 * maxPdfPages;

function partName(range: PageRange): string {
  return range.from === range.to ? `page-${range.from}.pdf` : `pages-${rangeLabel(range)}.pdf`;
}

export async function run(input: PdfSplitInput): Promise<PdfSplitOutput> {
  const source = await loadPdf(input.file);
  const pageCount = source.getPageCount();
  let ranges: PageRange[];
  if (input.mode === 'every-page') {
    ranges = Array.from({ length: pageCount }, (_, i) => ({ from: i + 1, to: i + 1 }));
  } else {
    if (input.ranges === undefined) throw new ToolInputError('Give the page ranges to split out, e.g. "1-3,5,8-".', { field: 'ranges' });
    ranges = parsePageRanges(input.ranges, pageCount, 'ranges');
  }
  // Ranges may overlap ("1-,1-,1-…"); the copies together are held to a limit.
  const written = ranges.reduce((sum, r) => sum + r.to - r.from + 1, 0);
  if (written > maxWrittenPages) {
    throw new ToolInputError(`These ranges would copy ${written} pages in all; at most ${maxWrittenPages} can be written at once.`, { field: 'ranges', kind: 'too_large' });
  }
  const files: ToolFile[] = [];
  const parts: PdfSplitOutput['parts'] = [];
  const seen = new Map<string, number>();
  for (const range of ranges) {
    const part = await PDFDocument.create({ updateMetadata: false });
    for (const page of await part.copyPages(source, rangeIndices(range))) part.addPage(page);
    // The same range asked for twice gets a distinct name, so a ZIP keeps both.
    const base = partName(range);
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    const name = count === 1 ? base : base.replace(/\.pdf$/, `-${count}.pdf`);
    files.push(pdfFile(name, await savePdf(part)));
    parts.push({ name, pageCount: range.to - range.from + 1 });
  }
  return { files, pageCount, parts };
}
