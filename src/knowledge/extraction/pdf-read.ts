/**
 * Reading a PDF's text with pdf.js, apart from the extraction rules (pdf.ts) so that pdf.js is
 * loaded into an ingestion thread only when a PDF arrives: prepare-upload.ts imports this module
 * on demand.
 */
import { DomainError } from '../../errors.js';
import { run as readPdfText } from '../../tools/pdf-text-extract/server.js';
import { ToolInputError } from '../../tools/types.js';
import { cleanText } from './decode.js';
import { OCR_HINT, type PdfPages } from './pdf.js';

/** A refusal of the PDF tools as the upload error it is. */
function asDomainError(error: ToolInputError): DomainError {
  const message = error.message;
  if (error.details.kind === 'too_large') return new DomainError('payload_too_large', message, { reason: 'pdf_too_large' });
  if (error.details.kind === 'unsupported_type') return new DomainError('unsupported_media_type', message);
  if (/encrypted/i.test(message)) return new DomainError('no_extractable_text', message, { reason: 'encrypted_pdf' });
  return new DomainError('no_extractable_text', message, { reason: 'unreadable_pdf' });
}

/**
 * The text of every page. Throws DomainError: 415 unsupported_media_type (not a PDF), 413
 * payload_too_large (streams past the inflate budget, more than 2000 pages), 422
 * no_extractable_text (encrypted, damaged, or no text layer on any page).
 */
export async function readPdfPages(bytes: Uint8Array): Promise<PdfPages> {
  let pages: { page: number; text: string }[];
  try {
    pages = (await readPdfText({ file: bytes })).pages;
  } catch (error) {
    if (error instanceof ToolInputError) throw asDomainError(error);
    throw error;
  }
  const texts = pages.map((p) => cleanText(p.text).trim());
  if (texts.every((t) => t === '')) {
    throw new DomainError(
      'no_extractable_text',
      `The PDF has no text layer (${texts.length === 1 ? 'its page is' : `its ${texts.length} pages are`} probably scanned images), so there is no text to read. ${OCR_HINT}`,
      { reason: 'no_text_layer' },
    );
  }
  return texts;
}

