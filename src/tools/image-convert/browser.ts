/** Conversion in the browser: decode with createImageBitmap, encode with OffscreenCanvas. */
import { canvasCodec } from '../shared/image-canvas.js';
import { type ConvertInput, convertImage } from './core.js';

export const run = (input: ConvertInput) => convertImage(canvasCodec, input);
