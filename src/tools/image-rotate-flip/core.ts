/**
 * Quarter turns (clockwise) and mirroring, applied to the upright image (EXIF orientation first),
 * so the result looks turned the same way in every viewer and carries no orientation tag.
 */
import { type ImageOutput, sameFormat, transformImage } from '../shared/image-job.js';
import { type ImageCodec, defaultQuality, identityPlan } from '../shared/image-plan.js';

export interface RotateFlipInput {
  image: Uint8Array;
  rotate?: 0 | 90 | 180 | 270;
  flip?: 'none' | 'horizontal' | 'vertical' | 'both';
}

export function rotateFlipImage(codec: ImageCodec, input: RotateFlipInput): Promise<ImageOutput> {
  return transformImage(codec, input.image, (header, decoded) => {
    const flip = input.flip ?? 'none';
    const rotate = input.rotate ?? 0;
    const warnings: string[] = [];
    if (rotate === 0 && flip === 'none') warnings.push('No rotation or flip was asked for; the image was only re-saved upright.');
    const plan = { ...identityPlan(decoded), rotate, flipHorizontal: flip === 'horizontal' || flip === 'both', flipVertical: flip === 'vertical' || flip === 'both' };
    return { plan, encoding: { format: sameFormat(header.format, warnings), quality: defaultQuality }, action: rotate ? `rotated-${rotate}` : 'flipped', warnings };
  });
}
