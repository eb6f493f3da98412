/**
 * OCR in the browser with tesseract.js. Tesseract starts its own Web Worker; every file it loads
 * (worker script, WebAssembly core, English model) comes from our origin under /tools/assets/ocr,
 * served out of the npm packages (src/http/routes/tool-assets.ts) — never from its default CDN.
 */
import { createWorker, OEM } from 'tesseract.js';
import { ocrAssetBase } from '../shared/ai-ocr-assets.js';
import { type ToolContext, ToolInputError } from '../types.js';
import { checkImage } from './check.js';
import { type OcrImageInput, type OcrImageOutput, ocrOutput, progressOf } from './result.js';

function assetUrl(path: string): string {
  return new URL(`${ocrAssetBase}/${path}`, self.location.origin).href;
}

export async function run(input: OcrImageInput, context?: ToolContext): Promise<OcrImageOutput> {
  const size = checkImage(input.image);
  const worker = await createWorker('eng', OEM.LSTM_ONLY, {
    workerPath: assetUrl('worker.min.js'),
    // A directory: tesseract picks the relaxed-SIMD, SIMD or plain core this browser supports.
    corePath: assetUrl('core'),
    langPath: assetUrl('lang'),
    gzip: true,
    // A classic worker from our origin, as the Content-Security-Policy allows (no blob: workers).
    workerBlobURL: false,
    logger: (m) => context?.onProgress?.(progressOf(m.status, m.progress), m.status),
    errorHandler: () => {},
  });
  try {
    const { data } = await worker.recognize(new Blob([input.image as Uint8Array<ArrayBuffer>], { type: size.type }));
    return ocrOutput(data.text, data.confidence, size);
  } catch (error) {
    throw new ToolInputError(`The image could not be read: ${error instanceof Error ? error.message : String(error)}`, { field: 'image' });
  } finally {
    await worker.terminate();
  }
}
