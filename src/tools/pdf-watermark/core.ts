/** Stamps a line of text on every chosen page, in the standard Helvetica font (not embedded). */
import { loadPdf } from '../shared/pdf-load.js';
import { pdfFile, savePdf } from '../shared/pdf-output.js';
import { selectedIndices } from '../shared/pdf-pages.js';
import { type StampPosition, assertDrawable, helvetica, hexColor, stampText } from '../shared/pdf-stamp.js';
import { ToolInputError, type ToolFile } from '../types.js';

export interface PdfWatermarkInput {
  file: Uint8Array;
  text: string;
  fontSize?: number;
  opacity?: number;
  rotation?: number;
  position?: StampPosition;
  color?: string;
  pages?: string;
}

export interface PdfWatermarkOutput {
  file: ToolFile;
  pageCount: number;
  stampedPages: number;
}

export async function run(input: PdfWatermarkInput): Promise<PdfWatermarkOutput> {
  const text = input.text.trim();
  if (text === '') throw new ToolInputError('Give the watermark text.', { field: 'text' });
  if (/[\r\n]/.test(text)) throw new ToolInputError('The watermark is one line: remove the line breaks.', { field: 'text' });
  const opacity = input.opacity ?? 0.3;
  if (!(opacity > 0 && opacity <= 1)) throw new ToolInputError('Opacity must be above 0 and at most 1.', { field: 'opacity' });
  const color = input.color ?? '#808080';
  if (!/^#[0-9a-fA-F]{6}$/.test(color)) throw new ToolInputError('The colour must look like #808080.', { field: 'color' });
  const doc = await loadPdf(input.file);
  const font = await helvetica(doc);
  assertDrawable(font, text, 'text');
  const pages = doc.getPages();
  const chosen = selectedIndices(input.pages, pages.length, 'pages');
  for (const index of chosen) {
    const page = pages[index];
    if (!page) continue;
    stampText(page, text, {
      font,
      size: input.fontSize ?? 48,
      position: input.position ?? 'center',
      margin: 24,
      rotation: input.rotation ?? 45,
      opacity,
      color: hexColor(color),
    });
  }
  return { file: pdfFile('watermarked.pdf', await savePdf(doc)), pageCount: pages.length, stampedPages: chosen.length };
}
