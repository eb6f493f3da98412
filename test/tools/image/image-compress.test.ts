import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { meta } from '../../../src/tools/image-compress/meta.js';
import { run } from '../../../src/tools/image-compress/server.js';
import { base64, inspect, makeImage } from './fixtures.js';
import { apiRefusal, describeExamples, describeFileRefusals } from './image-support.js';

describeExamples(meta, run);
describeFileRefusals(meta, run);

/** A photo-like image: smooth gradients with some noise, which PNG stores poorly. */
async function photo(width: number, height: number): Promise<Uint8Array> {
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = ((i * 7) % 200) + ((seed >> 16) % 40);
  }
  return new Uint8Array(await sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer());
}

describe('image-compress behaviour', () => {
  it('reports bytes before and after, and the ratio', async () => {
    const image = await photo(120, 80);
    const output = await run({ image, format: 'jpeg', quality: 50 });
    expect(output.keptOriginal).toBe(false);
    expect(output.inputBytes).toBe(image.length);
    expect(output.bytes).toBeLessThan(image.length);
    expect(output.ratio).toBeCloseTo(output.bytes / image.length, 3);
    expect(output.savedPercent).toBeGreaterThan(0);
  });

  it('lower quality gives a smaller file', async () => {
    const image = await photo(120, 80);
    const low = await run({ image, quality: 20 });
    const high = await run({ image, quality: 95 });
    expect(low.bytes).toBeLessThan(high.bytes);
  });

  it('scales down to maxDimension, never up', async () => {
    const image = await photo(120, 80);
    expect(await run({ image, maxDimension: 60 })).toMatchObject({ width: 60, height: 40 });
    expect(await run({ image, maxDimension: 1000 })).toMatchObject({ width: 120, height: 80 });
  });

  it('keeps an already small file and says so', async () => {
    const image = await makeImage(4, 4, 'png');
    const output = await run({ image, format: 'jpeg' });
    expect(output).toMatchObject({ keptOriginal: true, format: 'png', bytes: image.length, ratio: 1 });
    expect(output.file.data).toBe(image);
    expect(output.warnings?.[0]).toMatch(/original is returned unchanged/);
  });

  it('removes EXIF and GPS metadata', async () => {
    const withExif = await sharp(await photo(64, 64)).withExif({ IFD0: { Make: 'Secret' } }).jpeg({ quality: 100 }).toBuffer();
    const output = await run({ image: new Uint8Array(withExif), format: 'jpeg', quality: 40 });
    expect(output.keptOriginal).toBe(false);
    expect((await inspect(output.file.data)).exif).toBe(false);
  });
});

describe('image-compress API', () => {
  it.each([
    [{ format: 'png' }, new Uint8Array(), 'validation_failed', 422],
    [{ maxDimension: 0 }, new Uint8Array(), 'validation_failed', 422],
    [{}, new TextEncoder().encode('%PDF-1.7'), 'unsupported_media_type', 415],
  ])('%j → %s', async (options, file, code, status) => {
    const image = base64(file.length ? file : await makeImage(4, 4));
    expect(await apiRefusal('image-compress', { image, ...options })).toMatchObject({ code, status });
  });
});
