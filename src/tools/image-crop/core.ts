/**
 * Cropping: a box in pixels of the upright image (EXIF orientation applied), clamped to the image
 * with a warning rather than refused, since "to the edge" is the usual intent of an oversize box.
 */
import { ToolInputError } from '../types.js';
import { type ImageOutput, sameFormat, transformImage } from '../shared/image-job.js';
import { type Box, type ImageCodec, type Size, defaultQuality, identityPlan } from '../shared/image-plan.js';

export interface CropInput {
  image: Uint8Array;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The part of the box inside the image, and whether anything was cut off. */
export function clampCrop(image: Size, box: Box): { box: Box; warnings: string[] } {
  if (box.x >= image.width || box.y >= image.height) {
    const field = box.x >= image.width ? 'x' : 'y';
    throw new ToolInputError(`The crop starts at (${box.x}, ${box.y}), outside the ${image.width} × ${image.height} image.`, { field });
  }
  const clamped = { x: box.x, y: box.y, width: Math.min(box.width, image.width - box.x), height: Math.min(box.height, image.height - box.y) };
  const warnings =
    clamped.width === box.width && clamped.height === box.height
      ? []
      : [`The crop box ${box.width} × ${box.height} at (${box.x}, ${box.y}) reaches past the ${image.width} × ${image.height} image; it was reduced to ${clamped.width} × ${clamped.height}.`];
  return { box: clamped, warnings };
}

export function cropImage(codec: ImageCodec, input: CropInput): Promise<ImageOutput> {
  return transformImage(codec, input.image, (header, decoded) => {
    const { box, warnings } = clampCrop(decoded, input);
    const plan = { ...identityPlan(box), source: box };
    return { plan, encoding: { format: sameFormat(header.format, warnings), quality: defaultQuality }, action: 'cropped', warnings };
  });
}
