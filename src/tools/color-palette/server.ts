/** Colour palette on the server: sharp decodes and scales to RGBA. */
import { sharpCodec } from '../shared/image-sharp.js';
import { type PaletteInput, colourPalette } from './core.js';

export const run = (input: PaletteInput) => colourPalette(sharpCodec, input);
