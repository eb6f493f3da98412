/**
 * Opening PDFs with pdf.js (text extraction, rendering) with the same refusals as the pdf-lib
 * tools. The caller passes pdf.js's `getDocument`: the server uses the legacy Node build, the
 * page the browser build with its worker served from our own origin.
 */
import { ToolInputError } from '../types.js';
import { assertPdf, encryptedError, maxPdfPages, tooManyPagesError, unreadableError } from './pdf-load.js';

export interface PdfjsDocumentLike {
  numPages: number;
  destroy(): Promise<void>;
}

export interface PdfjsLoadingTask<D> {
  promise: Promise<D>;
  destroy(): Promise<void>;
}

/** What pdf.js is given: a copy of the bytes (it transfers, and so empties, the buffer it gets). */
export function pdfjsSource(bytes: Uint8Array): { data: Uint8Array; verbosity: number; isEvalSupported: boolean; stopAtErrors: boolean } {
  return { data: bytes.slice(), verbosity: 0, isEvalSupported: false, stopAtErrors: false };
}

export async function openWithPdfjs<D extends PdfjsDocumentLike>(
  getDocument: (bytes: Uint8Array) => PdfjsLoadingTask<D>,
  bytes: Uint8Array,
  field = 'file',
): Promise<D> {
  assertPdf(bytes, field);
  const task = getDocument(bytes);
  let doc: D;
  try {
    doc = await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    if (error instanceof Error && error.name === 'PasswordException') throw encryptedError(field);
    throw unreadableError(field);
  }
  if (doc.numPages > maxPdfPages) {
    await doc.destroy();
    throw tooManyPagesError(doc.numPages, field);
  }
  if (doc.numPages === 0) {
    await doc.destroy();
    throw new ToolInputError('The file has no pages that could be read.', { field });
  }
  return doc;
}
