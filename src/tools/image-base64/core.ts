/**
 * An image as a data URI and as Base64. The media type comes from the file's magic bytes (a
 * renamed file still gets the right type); the pixels are never decoded.
 */
import { bytesToBase64 } from '../shared/bytes.js';
import { mediaTypes, readImageHeader } from '../shared/image-format.js';
import { withWarnings } from '../shared/image-job.js';

export interface ImageBase64Input {
  image: Uint8Array;
}

export interface ImageBase64Output {
  /** The data URI, e.g. `data:image/png;base64,iVBOR…`. */
  result: string;
  base64: string;
  mediaType: string;
  width: number;
  height: number;
  bytes: number;
  /** Characters of the data URI (Base64 is a third larger than the file). */
  dataUriLength: number;
  warnings?: string[];
}

/** Above this, a data URI usually costs more (no caching, bigger HTML/CSS) than a linked file. */
const inlineAdviceBytes = 100_000;

export function run(input: ImageBase64Input): ImageBase64Output {
  const { format, width, height } = readImageHeader(input.image);
  const mediaType = mediaTypes[format];
  const base64 = bytesToBase64(input.image);
  const result = `data:${mediaType};base64,${base64}`;
  const warnings =
    input.image.length > inlineAdviceBytes
      ? [`The image is ${Math.round(input.image.length / 1000)} KB; a data URI this big cannot be cached separately and makes pages heavier — linking the file is usually better.`]
      : [];
  return withWarnings({ result, base64, mediaType, width, height, bytes: input.image.length, dataUriLength: result.length }, warnings);
}
