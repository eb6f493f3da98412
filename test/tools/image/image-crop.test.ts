import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { clampCrop } from '../../../src/tools/image-crop/core.js';
import { meta } from '../../../src/tools/image-crop/meta.js';
import { run } from '../../../src/tools/image-crop/server.js';
import { toolRefusal } from '../support.js';
import { base64, makeImage } from './fixtures.js';
import { apiRefusal, describeExamples, describeFileRefusals } from './image-support.js';

describeExamples(meta, run);
describeFileRefusals(meta, run, { x: 0, y: 0, width: 2, height: 2 });

describe('image-crop', () => {
  it('keeps the box inside the image', () => {
    expect(clampCrop({ width: 10, height: 10 }, { x: 2, y: 3, width: 4, height: 4 })).toEqual({ box: { x: 2, y: 3, width: 4, height: 4 }, warnings: [] });
    const clamped = clampCrop({ width: 10, height: 10 }, { x: 8, y: 0, width: 5, height: 50 });
    expect(clamped.box).toEqual({ x: 8, y: 0, width: 2, height: 10 });
    expect(clamped.warnings).toHaveLength(1);
  });

  it('cuts out the pixels asked for', async () => {
    const image = await makeImage(20, 10, 'png', [255, 0, 0, 255], [0, 0, 255, 255]);
    const output = await run({ image, x: 10, y: 0, width: 10, height: 10 });
    const { data, info } = await sharp(output.file.data).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ width: 10, height: 10 });
    expect([...data.subarray(0, 3)]).toEqual([0, 0, 255]);
  });

  it('crops the upright image when EXIF says it is turned', async () => {
    const turned = await sharp(await makeImage(40, 20, 'jpeg')).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const output = await run({ image: new Uint8Array(turned), x: 0, y: 0, width: 20, height: 40 });
    expect(output).toMatchObject({ width: 20, height: 40, format: 'jpeg' });
    expect(output.warnings).toBeUndefined();
  });

  it.each([
    [{ x: 8, y: 0 }, 'x'],
    [{ x: 0, y: 6 }, 'y'],
  ])('refuses a box starting outside the image (%j)', async (start, field) => {
    const error = await toolRefusal(async () => run({ image: await makeImage(8, 6), ...start, width: 2, height: 2 }));
    expect(error.details.field).toBe(field);
  });

  it.each([
    [{ width: 2, height: 2, x: -1 }, 'validation_failed'],
    [{ width: 0, height: 2 }, 'validation_failed'],
    [{ height: 2 }, 'validation_failed'],
    [{ width: 2, height: 2, x: 100 }, 'validation_failed'],
  ])('API refuses %j', async (box, code) => {
    expect(await apiRefusal('image-crop', { image: base64(await makeImage(8, 6)), ...box })).toMatchObject({ code, status: 422 });
  });
});
