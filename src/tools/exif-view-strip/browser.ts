/** EXIF view (exifr) and strip (canvas re-encode) in the browser. */
import { canvasCodec } from '../shared/image-canvas.js';
import { type ExifInput, exifTool } from './core.js';

export const run = (input: ExifInput) => exifTool(canvasCodec, input);
