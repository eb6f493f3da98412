/** Rotates pages in place by changing their /Rotate entry, so content, links and forms stay intact. */
import { degrees } from 'pdf-lib';
import { loadPdf } from '../shared/pdf-load.js';
import { pdfFile, savePdf } from '../shared/pdf-output.js';
import { selectedIndices } from '../shared/pdf-pages.js';
import { ToolInputError, type ToolFile } from '../types.js';

export interface PdfRotateInput {
  file: Uint8Array;
  angle?: number;
  pages?: string;
}

export interface PdfRotateOutput {
  file: ToolFile;
  pageCount: number;
  rotatedPages: number;
  /** Each page's rotation after the change, in degrees clockwise (0, 90, 180 or 270). */
  rotations: number[];
}

/** 0, 90, 180 or 270 for any multiple of 90. */
function normalise(angle: number): number {
  return ((angle % 360) + 360) % 360;
}

export async function run(input: PdfRotateInput): Promise<PdfRotateOutput> {
  const angle = input.angle ?? 90;
  if (!Number.isInteger(angle) || angle % 90 !== 0) {
    throw new ToolInputError(`Pages can only be turned by multiples of 90 degrees, not ${angle}.`, { field: 'angle' });
  }
  const doc = await loadPdf(input.file);
  const pages = doc.getPages();
  const chosen = selectedIndices(input.pages, pages.length, 'pages');
  for (const index of chosen) {
    const page = pages[index];
    // A damaged /Rotate (not a multiple of 90) counts as 0, as viewers treat it.
    const current = page?.getRotation().angle ?? 0;
    page?.setRotation(degrees(normalise((current % 90 === 0 ? current : 0) + angle)));
  }
  return {
    file: pdfFile('rotated.pdf', await savePdf(doc)),
    pageCount: pages.length,
    rotatedPages: chosen.length,
    rotations: pages.map((page) => normalise(page.getRotation().angle)),
  };
}
