/**
 * PDF pages → PNG or JPEG images. Rendering needs pdf.js and a canvas, so it happens only in the
 * browser (browser.ts); this file holds the pure part both share: the options and the pixel
 * budget, checked before anything is drawn.
 */
import { ToolInputError, type ToolFile } from '../types.js';

export interface PdfToImagesInput {
  file: Uint8Array;
  format?: 'png' | 'jpeg';
  /** 1 = 72 dpi (one pixel per point), 2 = 144 dpi… */
  scale?: number;
  /** JPEG quality, 0.1–1. */
  quality?: number;
  pages?: string;
}

export interface PdfToImagesOutput {
  files: ToolFile[];
  pageCount: number;
  images: { name: string; page: number; width: number; height: number }[];
}

export interface RenderOptions {
  format: 'png' | 'jpeg';
  mimeType: 'image/png' | 'image/jpeg';
  scale: number;
  quality: number;
}

export interface PlannedImage {
  /** 0-based page index. */
  index: number;
  name: string;
  width: number;
  height: number;
}

export const maxPagesRendered = 200;
export const maxPixelsPerPage = 25_000_000;
export const maxPixelsTotal = 200_000_000;
/** Browsers refuse canvases much wider or taller than this. */
export const maxSide = 16_000;

export function renderOptions(input: PdfToImagesInput): RenderOptions {
  const format = input.format ?? 'png';
  const scale = input.scale ?? 2;
  const quality = input.quality ?? 0.9;
  if (format !== 'png' && format !== 'jpeg') throw new ToolInputError('The format is "png" or "jpeg".', { field: 'format' });
  if (!(scale >= 0.25 && scale <= 8)) throw new ToolInputError('The scale must be between 0.25 and 8.', { field: 'scale' });
  if (!(quality >= 0.1 && quality <= 1)) throw new ToolInputError('The JPEG quality must be between 0.1 and 1.', { field: 'quality' });
  return { format, mimeType: format === 'png' ? 'image/png' : 'image/jpeg', scale, quality };
}

/**
 * The images to make, from the chosen pages' sizes at the chosen scale (in pixels), refused
 * (413) before rendering when they would use too much memory.
 */
export function planImages(pages: { index: number; width: number; height: number }[], options: RenderOptions): PlannedImage[] {
  if (pages.length > maxPagesRendered) {
    throw new ToolInputError(`${pages.length} pages were chosen; at most ${maxPagesRendered} are rendered at once. Choose fewer pages.`, { field: 'pages', kind: 'too_large' });
  }
  let total = 0;
  const planned = pages.map(({ index, width, height }) => {
    const w = Math.max(1, Math.ceil(width));
    const h = Math.max(1, Math.ceil(height));
    if (w * h > maxPixelsPerPage || w > maxSide || h > maxSide) {
      throw new ToolInputError(`Page ${index + 1} would be ${w}×${h} pixels at scale ${options.scale}; lower the scale.`, { field: 'scale', kind: 'too_large' });
    }
    total += w * h;
    return { index, name: `page-${index + 1}.${options.format === 'png' ? 'png' : 'jpg'}`, width: w, height: h };
  });
  if (total > maxPixelsTotal) {
    throw new ToolInputError(`The images would have ${Math.round(total / 1e6)} megapixels in all (at most ${maxPixelsTotal / 1e6}); lower the scale or choose fewer pages.`, { field: 'scale', kind: 'too_large' });
  }
  return planned;
}

/** On the server there is no canvas: the tool is offered only on its page. */
export function run(input: PdfToImagesInput): never {
  renderOptions(input);
  throw new ToolInputError('PDF to images runs only in the browser (it needs a canvas); open its page at /tools/pdf-to-images.');
}
