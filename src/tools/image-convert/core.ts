/**
 * Format conversion: the same pixels, written as PNG, JPEG or WebP. Pure planning; browser.ts and
 * server.ts decode and encode.
 */
import type { OutputFormat } from '../shared/image-format.js';
import { type ImageOutput, transformImage } from '../shared/image-job.js';
import { type ImageCodec, identityPlan, qualityOf } from '../shared/image-plan.js';

export interface ConvertInput {
  image: Uint8Array;
  to: OutputFormat;
  quality?: number;
}

export function convertImage(codec: ImageCodec, input: ConvertInput): Promise<ImageOutput> {
  return transformImage(codec, input.image, (header, decoded) => {
    const warnings: string[] = [];
    if (header.format === input.to) warnings.push(`The image was already ${input.to.toUpperCase()}; it was re-encoded.`);
    if (header.format === 'gif') warnings.push('Only the first frame of an animated GIF is kept.');
    return { plan: identityPlan(decoded), encoding: { format: input.to, quality: qualityOf(input.quality) }, action: 'converted', warnings };
  });
}
