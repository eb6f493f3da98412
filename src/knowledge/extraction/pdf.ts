/**
 * PDF (`.pdf`): the text layer of every page, read with pdf.js exactly as the "Extract text from
 * PDF" utility reads it (src/tools/pdf-text-extract: pdf.js's legacy Node build, the same
 * refusals, and the Flate inflate budget of src/tools/shared/pdf-inflate-budget.ts checked
 * before pdf.js sees the file, so a decompression bomb is refused rather than inflated).
 *
 * Reading is asynchronous (pdf.js), so it happens first, on the ingestion thread
 * (ingest-worker.ts, `readPdfPages`); the pages' text then goes through the same synchronous
 * extraction as every other format (`extractPdf`): one record per page, split at the size limit.
 */
import type { Draft } from './classify.js';

export const OCR_HINT = 'Use the "Image to text (OCR)" utility (ocr-image) on the page images, then upload the text.';

/** The text of each page, in order (an empty string for a page without a text layer). */
export type PdfPages = readonly string[];

/** One draft per page with text, titled `Page N`; pages without text are listed in `reject`. */
export function* extractPdf(pages: PdfPages, reject: (at: string, reason: string) => void): Generator<Draft, void, undefined> {
  for (let k = 0; k < pages.length; k++) {
    const text = pages[k] as string;
    if (text === '') reject(`page ${k + 1}`, `the page has no text layer (a scanned image?). ${OCR_HINT}`);
    else yield { kind: 'passage', title: `Page ${k + 1}`, text };
  }
}
