/**
 * Lossless size reduction: re-save with cross-reference and object streams (which compress
 * many small objects together) after dropping objects nothing refers to. Images and fonts are
 * not touched, so scanned PDFs barely shrink — the tool says so rather than pretending.
 */
import { loadPdf } from '../shared/pdf-load.js';
import { pdfFile, savePdf } from '../shared/pdf-output.js';
import type { ToolFile } from '../types.js';
import { dropUnusedObjects } from './unused-objects.js';

export interface PdfCompressInput {
  file: Uint8Array;
}

export interface PdfCompressOutput {
  file: ToolFile;
  pageCount: number;
  bytesBefore: number;
  bytesAfter: number;
  /** Percent of the original size saved, one decimal. */
  savedPercent: number;
  removedObjects: number;
  warnings?: string[];
}

export async function run(input: PdfCompressInput): Promise<PdfCompressOutput> {
  const doc = await loadPdf(input.file);
  const removedObjects = dropUnusedObjects(doc);
  const saved = await savePdf(doc);
  const before = input.file.length;
  const pageCount = doc.getPageCount();
  if (saved.length >= before) {
    return {
      file: pdfFile('original.pdf', input.file),
      pageCount,
      bytesBefore: before,
      bytesAfter: before,
      savedPercent: 0,
      removedObjects: 0,
      warnings: [
        `Re-saving did not make this PDF smaller (${saved.length} bytes against ${before}), so the original is returned unchanged. Its size is probably images or fonts, which this lossless re-save does not touch.`,
      ],
    };
  }
  return {
    file: pdfFile('resaved.pdf', saved),
    pageCount,
    bytesBefore: before,
    bytesAfter: saved.length,
    savedPercent: Math.round(((before - saved.length) / before) * 1000) / 10,
    removedObjects,
  };
}
