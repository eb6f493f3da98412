/**
 * Colour palette: the codec (browser or sharp) only decodes and scales the image to at most
 * 200 × 200 RGBA; the colours come from the pure median cut in median-cut.ts.
 */
import { readImageHeader } from '../shared/image-format.js';
import { withWarnings } from '../shared/image-job.js';
import { type ImageCodec, fitWithin } from '../shared/image-plan.js';
import { type PaletteColour, medianCut } from './median-cut.js';

export interface PaletteInput {
  image: Uint8Array;
  count?: number;
}

export interface PaletteOutput {
  colors: PaletteColour[];
  /** One line per colour: hex and share in percent. */
  result: string;
  width: number;
  height: number;
  warnings?: string[];
}

/** Enough pixels for stable colours, few enough to stay fast on 2 cores. */
const sampleSide = 200;

export async function colourPalette(codec: ImageCodec, input: PaletteInput): Promise<PaletteOutput> {
  const count = input.count ?? 6;
  readImageHeader(input.image);
  const image = await codec.decode(input.image, 'image');
  try {
    const colors = medianCut(await image.rgba(fitWithin(image, sampleSide)), count);
    const warnings: string[] = [];
    if (colors.length === 0) warnings.push('The image is fully transparent: it has no colours to pick.');
    else if (colors.length < count) warnings.push(`The image has only ${colors.length} distinct colour${colors.length === 1 ? '' : 's'}.`);
    const result = colors.map((c) => `${c.hex} ${(c.share * 100).toFixed(1)}%`).join('\n');
    return withWarnings({ colors, result, width: image.width, height: image.height }, warnings);
  } finally {
    image.close();
  }
}
