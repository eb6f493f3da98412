/** Cropping in the browser, with OffscreenCanvas. */
import { canvasCodec } from '../shared/image-canvas.js';
import { type CropInput, cropImage } from './core.js';

export const run = (input: CropInput) => cropImage(canvasCodec, input);
