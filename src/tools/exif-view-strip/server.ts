/** EXIF view (exifr) and strip (sharp re-encode, without `.withMetadata()`) on the server. */
import { sharpCodec } from '../shared/image-sharp.js';
import { type ExifInput, exifTool } from './core.js';

export const run = (input: ExifInput) => exifTool(sharpCodec, input);
