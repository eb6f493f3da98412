import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { meta } from '../../../src/tools/image-rotate-flip/meta.js';
import { run } from '../../../src/tools/image-rotate-flip/server.js';
import { base64, makeImage } from './fixtures.js';
import { apiRefusal, describeExamples, describeFileRefusals } from './image-support.js';

describeExamples(meta, run);
describeFileRefusals(meta, run, { rotate: 90 });

/** The colour of the top-left pixel of a result. */
async function topLeft(data: Uint8Array): Promise<number[]> {
  const raw = await sharp(data).raw().toBuffer();
  return [...raw.subarray(0, 3)];
}

describe('image-rotate-flip', () => {
  const red = [255, 0, 0, 255] as [number, number, number, number];
  const blue = [0, 0, 255, 255] as [number, number, number, number];

  it.each([
    [{ rotate: 90 as const }, [255, 0, 0], { width: 6, height: 8 }],
    [{ rotate: 180 as const }, [0, 0, 255], { width: 8, height: 6 }],
    [{ rotate: 270 as const }, [0, 0, 255], { width: 6, height: 8 }],
    [{ rotate: 0 as const, flip: 'horizontal' as const }, [0, 0, 255], { width: 8, height: 6 }],
    [{ rotate: 0 as const, flip: 'vertical' as const }, [255, 0, 0], { width: 8, height: 6 }],
  ])('%j: top-left becomes %j', async (options, colour, size) => {
    const output = await run({ image: await makeImage(8, 6, 'png', red, blue), ...options });
    expect(output).toMatchObject(size);
    expect(await topLeft(output.file.data)).toEqual(colour);
  });

  it('applies the EXIF orientation first', async () => {
    const turned = await sharp(await makeImage(40, 20, 'jpeg')).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    expect(await run({ image: new Uint8Array(turned), rotate: 90 })).toMatchObject({ width: 40, height: 20 });
  });

  it('warns when nothing was asked', async () => {
    const output = await run({ image: await makeImage(4, 4), rotate: 0, flip: 'none' });
    expect(output.warnings?.[0]).toMatch(/No rotation or flip/);
  });

  it.each([{ rotate: 45 }, { flip: 'diagonal' }, { rotate: '90' }])('API refuses %j', async (options) => {
    expect(await apiRefusal('image-rotate-flip', { image: base64(await makeImage(4, 4)), ...options })).toMatchObject({ code: 'validation_failed' });
  });
});
