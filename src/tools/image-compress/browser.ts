/** Compression in the browser: OffscreenCanvas re-encodes (canvas output carries no metadata). */
import { canvasCodec } from '../shared/image-canvas.js';
import { type CompressInput, compressImage } from './core.js';

export const run = (input: CompressInput) => compressImage(canvasCodec, input);
