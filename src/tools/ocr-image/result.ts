/** The OCR output, built the same way from tesseract.js results in Node and in the browser. */
import { round, words } from '../shared/ai-text.js';

export interface OcrImageInput {
  image: Uint8Array;
}

export interface OcrImageOutput {
  result: string;
  words: number;
  lines: number;
  /** Tesseract's mean word confidence, 0–100. */
  confidence: number;
  width: number;
  height: number;
  warnings?: string[];
}

/** Tesseract's progress messages as one fraction: loading counts for the first 30 %, recognition for the rest. */
export function progressOf(status: string, progress: number): number {
  return status === 'recognizing text' ? 0.3 + 0.7 * progress : Math.min(0.3, 0.3 * progress);
}

export function ocrOutput(text: string, confidence: number, size: { width: number; height: number }): OcrImageOutput {
  // Tesseract ends every line with "\n" and separates blocks with blank lines; trailing space is noise.
  const result = text.replace(/[ \t]+$/gm, '').trim();
  const output: OcrImageOutput = {
    result,
    words: words(result).length,
    lines: result === '' ? 0 : result.split('\n').filter((line) => line.trim() !== '').length,
    confidence: round(confidence, 1),
    width: size.width,
    height: size.height,
  };
  if (result === '') output.warnings = ['No text was found. OCR reads printed English text; photos, handwriting and very small print often fail.'];
  return output;
}
