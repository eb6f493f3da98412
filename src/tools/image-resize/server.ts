/** Resize on the server: decode and draw with sharp. */
import { sharpCodec } from '../shared/image-sharp.js';
import { type ResizeInput, resizeImage } from './core.js';

export const run = (input: ResizeInput) => resizeImage(sharpCodec, input);
