import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { meta } from '../../../src/tools/image-convert/meta.js';
import { run } from '../../../src/tools/image-convert/server.js';
import { base64, inspect, makeImage } from './fixtures.js';
import { apiRefusal, describeExamples, describeFileRefusals } from './image-support.js';

describeExamples(meta, run);
describeFileRefusals(meta, run, { to: 'png' });

describe('image-convert behaviour', () => {
  it.each(['png', 'jpeg', 'webp', 'gif'] as const)('reads %s and writes each output format', async (from) => {
    const image = await makeImage(12, 10, from);
    for (const to of ['png', 'jpeg', 'webp'] as const) {
      const output = await run({ image, to });
      expect(await inspect(output.file.data)).toMatchObject({ format: to, width: 12, height: 10 });
    }
  });

  it('fills transparency with white for JPEG and keeps it for WebP', async () => {
    const image = await makeImage(8, 8, 'png', [0, 0, 0, 0]);
    const jpeg = await run({ image, to: 'jpeg' });
    const { data } = await sharp(jpeg.file.data).raw().toBuffer({ resolveWithObject: true });
    expect(Math.min(...data.subarray(0, 3))).toBeGreaterThan(245);
    expect((await inspect((await run({ image, to: 'webp' })).file.data)).hasAlpha).toBe(true);
  });

  it('makes smaller files at lower quality', async () => {
    const image = await makeImage(64, 64, 'png', [10, 200, 30, 255], [200, 10, 30, 255]);
    const high = await run({ image, to: 'jpeg', quality: 100 });
    const low = await run({ image, to: 'jpeg', quality: 10 });
    expect(low.bytes).toBeLessThan(high.bytes);
  });

  it('drops EXIF metadata', async () => {
    const withExif = await sharp(await makeImage(8, 8, 'jpeg')).withExif({ IFD0: { Make: 'Secret' } }).jpeg().toBuffer();
    expect((await inspect(new Uint8Array(withExif))).exif).toBe(true);
    expect((await inspect((await run({ image: new Uint8Array(withExif), to: 'jpeg' })).file.data)).exif).toBe(false);
  });
});

describe('image-convert API', () => {
  it.each([
    [{ image: base64(new Uint8Array([1, 2, 3])), to: 'png' }, 'unsupported_media_type', 415],
    [{ image: 'AAAA', to: 'gif' }, 'validation_failed', 422],
    [{ image: 'AAAA', to: 'png', quality: 101 }, 'validation_failed', 422],
    [{ to: 'png' }, 'validation_failed', 422],
  ])('%j → %s', async (input, code, status) => {
    expect(await apiRefusal('image-convert', input)).toMatchObject({ code, status });
  });
});
