/** PDFs made for the PDF tool tests with pdf-lib (no binaries committed). */
import { PDFDocument, PDFString, StandardFonts } from 'pdf-lib';

/** A PDF whose pages show the given words (one page each). */
export async function pdfWithText(words: string[], options: { objectStreams?: boolean } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const word of words) doc.addPage([300, 200]).drawText(word, { x: 20, y: 100, size: 14, font });
  return doc.save({ useObjectStreams: options.objectStreams ?? true });
}

/** Blank pages, no text layer (like a scan without images). */
export async function blankPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (let i = 0; i < pages; i++) doc.addPage([100, 100]);
  return doc.save();
}

/**
 * A PDF whose trailer names a standard security handler with a user password: pdf-lib refuses it
 * as encrypted, and pdf.js asks for a password.
 */
export async function encryptedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.addPage([100, 100]);
  const filler = PDFString.of('0123456789abcdef0123456789abcdef');
  const encrypt = doc.context.obj({ Filter: 'Standard', V: 1, R: 2, O: filler, U: filler, P: -4 });
  doc.context.trailerInfo.Encrypt = doc.context.register(encrypt);
  doc.context.trailerInfo.ID = doc.context.obj([PDFString.of('abcdefghijklmnop'), PDFString.of('abcdefghijklmnop')]);
  return doc.save({ useObjectStreams: false });
}

/** Starts like a PDF, then is rubbish. */
export const corruptPdf = new TextEncoder().encode('%PDF-1.7\n1 0 obj << /Type /Catalog garbage (((\n%%EOF');

export const notAPdf = new TextEncoder().encode('GIF89a this is not a PDF at all');

export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

export function fromBase64(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'base64'));
}

/** The page count of a PDF a tool returned (throws if pdf-lib cannot read it). */
export async function pageCountOf(bytes: Uint8Array): Promise<number> {
  return (await PDFDocument.load(bytes)).getPageCount();
}

/** A PDF with more pages than the tools accept. */
export async function hugePdf(pages = 2001): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (let i = 0; i < pages; i++) doc.addPage([10, 10]);
  return doc.save();
}
