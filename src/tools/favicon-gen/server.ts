/** Favicons on the server: sharp draws each size. */
import { sharpCodec } from '../shared/image-sharp.js';
import { type FaviconInput, makeFavicons } from './core.js';

export const run = (input: FaviconInput) => makeFavicons(sharpCodec, input);
