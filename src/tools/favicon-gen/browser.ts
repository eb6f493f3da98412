/** Favicons in the browser: OffscreenCanvas draws each size. */
import { canvasCodec } from '../shared/image-canvas.js';
import { type FaviconInput, makeFavicons } from './core.js';

export const run = (input: FaviconInput) => makeFavicons(canvasCodec, input);
