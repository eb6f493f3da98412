/**
 * Favicons from one image: an ICO with 16, 32 and 48 pixel PNG entries, and PNGs for the Apple
 * touch icon (180) and web app manifests (192, 512). A non-square image is centred on a transparent
 * square rather than stretched or cropped.
 */
import type { ToolFile } from '../types.js';
import { readImageHeader } from '../shared/image-format.js';
import { writeIco } from '../shared/image-ico.js';
import { withWarnings } from '../shared/image-job.js';
import { type DrawPlan, type ImageCodec, type Size, identityPlan } from '../shared/image-plan.js';

export interface FaviconInput {
  image: Uint8Array;
}

export interface FaviconOutput {
  files: ToolFile[];
  /** The HTML `<link>` tags for the page's `<head>`. */
  result: string;
  width: number;
  height: number;
  warnings?: string[];
}

export const icoSizes = [16, 32, 48];
export const pngIcons = [
  { size: 180, name: 'apple-touch-icon.png' },
  { size: 192, name: 'icon-192.png' },
  { size: 512, name: 'icon-512.png' },
];

export const linkTags = [
  '<link rel="icon" href="/favicon.ico" sizes="16x16 32x32 48x48">',
  '<link rel="icon" type="image/png" sizes="192x192" href="/icon-192.png">',
  '<link rel="apple-touch-icon" sizes="180x180" href="/apple-touch-icon.png">',
  '<!-- icon-192.png and icon-512.png also belong in the "icons" of a web app manifest. -->',
].join('\n');

/** The whole image scaled to fit a `side` × `side` square, centred; the rest stays transparent. */
export function squarePlan(image: Size, side: number): DrawPlan {
  const scale = side / Math.max(image.width, image.height);
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const plan = identityPlan({ width: side, height: side });
  return { ...plan, source: { x: 0, y: 0, ...image }, target: { x: Math.floor((side - width) / 2), y: Math.floor((side - height) / 2), width, height } };
}

export async function makeFavicons(codec: ImageCodec, input: FaviconInput): Promise<FaviconOutput> {
  readImageHeader(input.image);
  const image = await codec.decode(input.image, 'image');
  try {
    const png = (side: number): Promise<Uint8Array> => image.render(squarePlan(image, side), { format: 'png', quality: 100 });
    const icoEntries = await Promise.all(icoSizes.map(async (size) => ({ size, png: await png(size) })));
    const files: ToolFile[] = [{ name: 'favicon.ico', type: 'image/x-icon', data: writeIco(icoEntries) }];
    for (const { size, name } of pngIcons) files.push({ name, type: 'image/png', data: await png(size) });
    const warnings: string[] = [];
    if (image.width !== image.height) warnings.push(`The image is ${image.width} × ${image.height}, not square: it was centred on a transparent square.`);
    const largest = Math.max(...pngIcons.map((icon) => icon.size));
    if (Math.max(image.width, image.height) < largest) warnings.push(`The image is smaller than ${largest} pixels, so the larger icons are enlarged and may look soft.`);
    return withWarnings({ files, result: linkTags, width: image.width, height: image.height }, warnings);
  } finally {
    image.close();
  }
}
