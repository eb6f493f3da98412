/**
 * OCR on the server with tesseract.js: English LSTM model (4.0.0_best_int) read from the
 * @tesseract.js-data/eng package on disk, the WebAssembly core from tesseract.js-core, nothing
 * fetched and nothing cached to disk. A fresh tesseract worker per run, always terminated.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM } from 'tesseract.js';
import type { ToolContext } from '../types.js';
import { ToolInputError } from '../types.js';
import { checkImage } from './check.js';
import { type OcrImageInput, type OcrImageOutput, ocrOutput, progressOf } from './result.js';

const require = createRequire(import.meta.url);
const langPath = path.dirname(require.resolve('@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz'));

export async function run(input: OcrImageInput, context?: ToolContext): Promise<OcrImageOutput> {
  const size = checkImage(input.image);
  const worker = await createWorker('eng', OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    cacheMethod: 'none',
    logger: (m) => context?.onProgress?.(progressOf(m.status, m.progress), m.status),
    // Failures surface as the rejected recognize() below; the default handler would also throw.
    errorHandler: () => {},
  });
  try {
    const { data } = await worker.recognize(Buffer.from(input.image));
    return ocrOutput(data.text, data.confidence, size);
  } catch (error) {
    throw new ToolInputError(`The image could not be read: ${error instanceof Error ? error.message : String(error)}`, { field: 'image' });
  } finally {
    await worker.terminate();
  }
}
