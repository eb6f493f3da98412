/** Saving PDFs the same way in every PDF tool, so that the same input gives the same bytes. */
import type { PDFDocument } from 'pdf-lib';
import type { ToolFile } from '../types.js';

/**
 * Object streams make the file smaller; form field appearances are left alone (regenerating
 * them would embed a font and change what the author drew).
 */
export async function savePdf(doc: PDFDocument): Promise<Uint8Array> {
  return doc.save({ useObjectStreams: true, updateFieldAppearances: false });
}

export function pdfFile(name: string, data: Uint8Array): ToolFile {
  return { name, type: 'application/pdf', data };
}

/** "1 page", "3 pages". */
export function pagesLabel(count: number): string {
  return count === 1 ? '1 page' : `${count} pages`;
}
