/** Resize in the browser: decode and draw with OffscreenCanvas. */
import { canvasCodec } from '../shared/image-canvas.js';
import { type ResizeInput, resizeImage } from './core.js';

export const run = (input: ResizeInput) => resizeImage(canvasCodec, input);
