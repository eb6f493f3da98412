/** Cropping on the server, with sharp. */
import { sharpCodec } from '../shared/image-sharp.js';
import { type CropInput, cropImage } from './core.js';

export const run = (input: CropInput) => cropImage(sharpCodec, input);
