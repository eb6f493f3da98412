/**
 * Text extraction shared by the server (pdf.js legacy build for Node) and the page (pdf.js
 * browser build): the text layer of each page, lines kept where pdf.js sees line ends.
 */
import { pdfjsSource, openWithPdfjs, type PdfjsLoadingTask } from '../shared/pdf-pdfjs.js';
import { ToolInputError } from '../types.js';

export interface PdfTextExtractInput {
  file: Uint8Array;
}

export interface PdfTextExtractOutput {
  /** All pages' text, pages separated by a blank line. */
  result: string;
  pageCount: number;
  pages: { page: number; text: string }[];
  characters: number;
  warnings?: string[];
}

interface TextPage {
  getTextContent(): Promise<{ items: readonly object[] }>;
  cleanup(): unknown;
}

interface TextDocument {
  numPages: number;
  getPage(pageNumber: number): Promise<TextPage>;
  destroy(): Promise<void>;
}

export type GetDocument = (source: ReturnType<typeof pdfjsSource>) => PdfjsLoadingTask<TextDocument>;

function pageText(items: readonly object[]): string {
  let text = '';
  for (const item of items) {
    // Marked-content items have no `str`.
    if (!('str' in item) || typeof item.str !== 'string') continue;
    text += item.str;
    if ('hasEOL' in item && item.hasEOL) text += '\n';
  }
  return text.replace(/[ \t]+\n/g, '\n').trim();
}

export async function extractText(getDocument: GetDocument, input: PdfTextExtractInput): Promise<PdfTextExtractOutput> {
  const doc = await openWithPdfjs((bytes) => getDocument(pdfjsSource(bytes)), input.file);
  try {
    const pages: PdfTextExtractOutput['pages'] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      try {
        const page = await doc.getPage(n);
        pages.push({ page: n, text: pageText((await page.getTextContent()).items) });
        page.cleanup();
      } catch {
        // pdf.js reads pages lazily, so damage past the header shows up only here.
        throw new ToolInputError(`Page ${n} could not be read: the PDF is damaged.`, { field: 'file' });
      }
    }
    const result = pages.map((p) => p.text).join('\n\n');
    const empty = pages.filter((p) => p.text === '').map((p) => p.page);
    const output: PdfTextExtractOutput = { result, pageCount: doc.numPages, pages, characters: [...result].length };
    if (empty.length === pages.length) {
      output.warnings = ['This PDF has no text layer (it is probably scanned images). Use the OCR tool to read text from the page images.'];
    } else if (empty.length > 0) {
      output.warnings = [`${empty.length === 1 ? 'Page' : 'Pages'} ${empty.join(', ')} had no text layer; the OCR tool can read scanned pages.`];
    }
    return output;
  } finally {
    await doc.destroy();
  }
}
