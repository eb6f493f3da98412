/** The PDF tools, in catalogue order. */
import { meta as imagesToPdf } from '../images-to-pdf/meta.js';
import { meta as pdfCompress } from '../pdf-compress/meta.js';
import { meta as pdfMerge } from '../pdf-merge/meta.js';
import { meta as pdfMetadata } from '../pdf-metadata/meta.js';
import { meta as pdfOrganize } from '../pdf-organize/meta.js';
import { meta as pdfPageNumbers } from '../pdf-page-numbers/meta.js';
import { meta as pdfRotate } from '../pdf-rotate/meta.js';
import { meta as pdfSplit } from '../pdf-split/meta.js';
import { meta as pdfToImages } from '../pdf-to-images/meta.js';
import { meta as pdfTextExtract } from '../pdf-text-extract/meta.js';
import { meta as pdfWatermark } from '../pdf-watermark/meta.js';
import type { ToolEntry } from './entry.js';

export const pdfTools: ToolEntry[] = [
  { meta: pdfMerge, load: () => import('../pdf-merge/core.js') },
  { meta: pdfSplit, load: () => import('../pdf-split/core.js') },
  { meta: pdfRotate, load: () => import('../pdf-rotate/core.js') },
  { meta: pdfOrganize, load: () => import('../pdf-organize/core.js') },
  { meta: pdfCompress, load: () => import('../pdf-compress/core.js') },
  { meta: pdfMetadata, load: () => import('../pdf-metadata/core.js') },
  { meta: pdfWatermark, load: () => import('../pdf-watermark/core.js') },
  { meta: pdfPageNumbers, load: () => import('../pdf-page-numbers/core.js') },
  { meta: imagesToPdf, load: () => import('../images-to-pdf/core.js') },
  { meta: pdfTextExtract, load: () => import('../pdf-text-extract/server.js') },
  // Browser only (api: false): the core validates the options and explains that it needs a canvas.
  { meta: pdfToImages, load: () => import('../pdf-to-images/core.js') },
];
