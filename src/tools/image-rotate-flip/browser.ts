/** Rotation and flips in the browser, with OffscreenCanvas transforms. */
import { canvasCodec } from '../shared/image-canvas.js';
import { type RotateFlipInput, rotateFlipImage } from './core.js';

export const run = (input: RotateFlipInput) => rotateFlipImage(canvasCodec, input);
