/** Compression on the server, with sharp (metadata is not copied). */
import { sharpCodec } from '../shared/image-sharp.js';
import { type CompressInput, compressImage } from './core.js';

export const run = (input: CompressInput) => compressImage(sharpCodec, input);
