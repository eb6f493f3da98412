/** Conversion on the server, with sharp. */
import { sharpCodec } from '../shared/image-sharp.js';
import { type ConvertInput, convertImage } from './core.js';

export const run = (input: ConvertInput) => convertImage(sharpCodec, input);
