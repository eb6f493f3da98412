/** Reading back what the PDF tools wrote, with pdf.js (the Node build). */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** The text of each page. */
export async function extractedText(bytes: Uint8Array): Promise<string[]> {
  const doc = await getDocument({ data: bytes.slice(), verbosity: 0 }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}
