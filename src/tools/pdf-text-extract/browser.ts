/** Text extraction on the page: pdf.js with its worker script served from our own origin (no CDN). */
import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { extractText, type PdfTextExtractInput, type PdfTextExtractOutput } from './extract.js';

export function run(input: PdfTextExtractInput): Promise<PdfTextExtractOutput> {
  GlobalWorkerOptions.workerSrc = workerUrl;
  return extractText(getDocument, input);
}
