/** Text extraction on the server: pdf.js's legacy build, which runs in Node with a built-in fake worker. */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { extractText, type PdfTextExtractInput, type PdfTextExtractOutput } from './extract.js';

/**
 * On some damaged files pdf.js's in-thread worker leaves a rejected promise nobody awaits, after
 * the run has already been refused properly. Unhandled, it would end the whole tool thread (and
 * the next run queued on it), so rejections coming from pdf.js are dropped; any other keeps
 * Node's default of crashing loudly.
 */
let guarded = false;
function dropStrayPdfjsRejections(): void {
  if (guarded) return;
  guarded = true;
  process.on('unhandledRejection', (reason) => {
    if (reason instanceof Error && reason.stack?.includes('pdfjs-dist')) return;
    throw reason;
  });
}

export function run(input: PdfTextExtractInput): Promise<PdfTextExtractOutput> {
  dropStrayPdfjsRejections();
  return extractText(getDocument, input);
}
