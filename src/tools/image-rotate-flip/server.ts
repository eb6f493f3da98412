/** Rotation and flips on the server, with sharp. */
import { sharpCodec } from '../shared/image-sharp.js';
import { type RotateFlipInput, rotateFlipImage } from './core.js';

export const run = (input: RotateFlipInput) => rotateFlipImage(sharpCodec, input);
