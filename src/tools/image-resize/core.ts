/**
 * Resize planning: the output size and the part of the image it shows, from the requested width
 * and/or height and the fit. Pure; browser.ts and server.ts only decode, draw and encode.
 */
import { ToolInputError } from '../types.js';
import type { OutputFormat } from '../shared/image-format.js';
import { maxImagePixels } from '../shared/image-format.js';
import { type ImageOutput, sameFormat, transformImage } from '../shared/image-job.js';
import { type Box, type DrawPlan, type ImageCodec, type Size, identityPlan, qualityOf } from '../shared/image-plan.js';

export type Fit = 'contain' | 'cover' | 'fill';

export interface ResizeInput {
  image: Uint8Array;
  width?: number;
  height?: number;
  fit?: Fit;
  allowUpscale?: boolean;
  format?: 'same' | OutputFormat;
  quality?: number;
}

export interface ResizePlan {
  plan: DrawPlan;
  warnings: string[];
}

const round = (value: number): number => Math.max(1, Math.round(value));

/** The centred part of `source` with the aspect ratio of `box` (what "cover" keeps). */
function centredCrop(source: Size, box: Size): Box {
  const scale = Math.max(box.width / source.width, box.height / source.height);
  const width = Math.min(source.width, round(box.width / scale));
  const height = Math.min(source.height, round(box.height / scale));
  return { x: Math.floor((source.width - width) / 2), y: Math.floor((source.height - height) / 2), width, height };
}

/** The requested output size and the source part it shows, before the no-enlarging rule. */
function requested(source: Size, input: ResizeInput): { out: Size; crop: Box } {
  const whole = { x: 0, y: 0, ...source };
  const { width, height } = input;
  if (width === undefined && height === undefined) throw new ToolInputError('Give a width, a height or both.', { field: 'width' });
  if (width === undefined || height === undefined) {
    const scale = width !== undefined ? width / source.width : (height as number) / source.height;
    return { out: { width: width ?? round(source.width * scale), height: height ?? round(source.height * scale) }, crop: whole };
  }
  const fit = input.fit ?? 'contain';
  if (fit === 'fill') return { out: { width, height }, crop: whole };
  if (fit === 'cover') return { out: { width, height }, crop: centredCrop(source, { width, height }) };
  const scale = Math.min(width / source.width, height / source.height);
  return { out: { width: round(source.width * scale), height: round(source.height * scale) }, crop: whole };
}

/** The plan for a resize of an image of `source` size (EXIF orientation applied). */
export function planResize(source: Size, input: ResizeInput): ResizePlan {
  const warnings: string[] = [];
  const { crop } = requested(source, input);
  let { out } = requested(source, input);
  if (!input.allowUpscale && (out.width > crop.width || out.height > crop.height)) {
    if ((input.fit ?? 'contain') === 'fill' && input.width !== undefined && input.height !== undefined) {
      out = { width: Math.min(out.width, crop.width), height: Math.min(out.height, crop.height) };
    } else {
      const scale = Math.min(crop.width / out.width, crop.height / out.height);
      out = { width: round(out.width * scale), height: round(out.height * scale) };
    }
    warnings.push(`The image (${source.width} × ${source.height}) is smaller than the requested size, so it was not enlarged; set allowUpscale to enlarge it.`);
  }
  if (out.width * out.height > maxImagePixels) {
    throw new ToolInputError(`The result would be ${out.width} × ${out.height}, over the ${maxImagePixels / 1_000_000}-megapixel limit.`, { field: 'width' });
  }
  const plan = identityPlan(out);
  return { plan: { ...plan, source: crop }, warnings };
}

/** Resizes with the codec of the place it runs. */
export function resizeImage(codec: ImageCodec, input: ResizeInput): Promise<ImageOutput> {
  return transformImage(codec, input.image, (header, decoded) => {
    const { plan, warnings } = planResize(decoded, input);
    const format = !input.format || input.format === 'same' ? sameFormat(header.format, warnings) : input.format;
    return { plan, encoding: { format, quality: qualityOf(input.quality) }, action: 'resized', warnings };
  });
}
