/** PDFs for the upload tests, made with pdf-lib (no binaries committed). */
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A 1×1 grey PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNoAAAAggCBd81ytgAAAABJRU5ErkJggg==', 'base64');

/** One page per entry; each entry's lines are drawn one under the other. */
export async function textPdf(pages: string[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([400, 300]);
    lines.forEach((line, k) => page.drawText(line, { x: 20, y: 260 - k * 20, size: 12, font }));
  }
  return doc.save();
}

/** A "scanned" PDF: pages that only show an image, no text layer. */
export async function scannedPdf(pages = 2): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const image = await doc.embedPng(PNG);
  for (let k = 0; k < pages; k++) doc.addPage([400, 300]).drawImage(image, { x: 0, y: 0, width: 400, height: 300 });
  return doc.save();
}
