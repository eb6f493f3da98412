import { describe, expect, it } from 'vitest';
import sharp, { type Sharp } from 'sharp';
import { readImageHeader, sniffFormat } from '../../../src/tools/shared/image-format.js';
import { avifStart, heicStart, makeImage, pngHeaderOnly } from './fixtures.js';

/** A 301 × 157 image, odd sizes so that swapped or off-by-one fields show. */
function odd(): Sharp {
  return sharp({ create: { width: 301, height: 157, channels: 4, background: '#336699' } });
}

/** Each encoder variant stores the size somewhere else in the header. */
const variants: [string, () => Promise<Buffer>][] = [
  ['PNG', () => odd().png().toBuffer()],
  ['baseline JPEG with EXIF first', () => odd().withExif({ IFD0: { Make: 'x'.repeat(3000) } }).jpeg().toBuffer()],
  ['progressive JPEG', () => odd().jpeg({ progressive: true }).toBuffer()],
  ['lossy WebP (VP8)', () => odd().removeAlpha().webp().toBuffer()],
  ['lossless WebP (VP8L)', () => odd().webp({ lossless: true }).toBuffer()],
  ['WebP with alpha (VP8X)', () => odd().ensureAlpha(0.5).webp().toBuffer()],
  ['GIF', () => odd().gif().toBuffer()],
];

describe('image headers', () => {
  it.each(variants)('reads the size of a %s without decoding', async (_name, make) => {
    const bytes = new Uint8Array(await make());
    expect(readImageHeader(bytes)).toMatchObject({ width: 301, height: 157 });
  });

  it('names formats by magic bytes only', async () => {
    expect(sniffFormat(await makeImage(2, 2, 'webp'))).toBe('webp');
    expect(sniffFormat(heicStart)).toEqual({ unsupported: 'HEIC/HEIF' });
    expect(sniffFormat(avifStart)).toEqual({ unsupported: 'AVIF' });
    expect(sniffFormat(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toEqual({ unsupported: 'SVG' });
    expect(sniffFormat(new TextEncoder().encode('BM....'))).toEqual({ unsupported: 'BMP' });
  });

  it('refuses more than 50 megapixels by kind too_large, and allows exactly 50', () => {
    expect(readImageHeader(pngHeaderOnly(10_000, 5_000))).toMatchObject({ width: 10_000, height: 5_000 });
    expect(() => readImageHeader(pngHeaderOnly(10_000, 5_001))).toThrow(/50 megapixels/);
  });

  it('refuses a JPEG whose frame header is missing', () => {
    expect(() => readImageHeader(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0, 2, 0, 0, 0, 0, 0, 0]))).toThrow(/damaged/);
  });
});
