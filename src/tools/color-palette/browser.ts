/** Colour palette in the browser: OffscreenCanvas decodes and scales to RGBA. */
import { canvasCodec } from '../shared/image-canvas.js';
import { type PaletteInput, colourPalette } from './core.js';

export const run = (input: PaletteInput) => colourPalette(canvasCodec, input);
