import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { planResize } from '../../../src/tools/image-resize/core.js';
import { meta } from '../../../src/tools/image-resize/meta.js';
import { run } from '../../../src/tools/image-resize/server.js';
import { runTool } from '../../../src/tools/runner.js';
import { toolRefusal } from '../support.js';
import { base64, heicStart, makeImage, pngHeaderOnly } from './fixtures.js';
import { apiRefusal, describeExamples, describeFileRefusals } from './image-support.js';

describeExamples(meta, run);
describeFileRefusals(meta, run, { width: 4 });

describe('image-resize planning', () => {
  const source = { width: 400, height: 200 };
  it.each([
    [{ width: 100 }, { width: 100, height: 50 }],
    [{ height: 100 }, { width: 200, height: 100 }],
    [{ width: 100, height: 100 }, { width: 100, height: 50 }],
    [{ width: 100, height: 100, fit: 'cover' as const }, { width: 100, height: 100 }],
    [{ width: 100, height: 100, fit: 'fill' as const }, { width: 100, height: 100 }],
    [{ width: 800, height: 800, fit: 'cover' as const }, { width: 200, height: 200 }],
    [{ width: 800, height: 100, fit: 'fill' as const }, { width: 400, height: 100 }],
    [{ width: 800, allowUpscale: true }, { width: 800, height: 400 }],
  ])('%j → %j', (options, size) => {
    expect(planResize(source, { image: new Uint8Array(), ...options }).plan.canvas).toEqual(size);
  });

  it('crops the centre for cover', () => {
    expect(planResize(source, { image: new Uint8Array(), width: 100, height: 100, fit: 'cover' }).plan.source).toEqual({ x: 100, y: 0, width: 200, height: 200 });
  });

  it('refuses a result over 50 megapixels', () => {
    const error = (() => {
      try {
        planResize(source, { image: new Uint8Array(), width: 10_000, height: 10_000, fit: 'fill', allowUpscale: true });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toMatch(/megapixel limit/);
  });
});

describe('image-resize behaviour', () => {
  it('applies EXIF orientation before resizing', async () => {
    const rotated = await sharp(await makeImage(40, 20, 'jpeg')).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const output = await run({ image: new Uint8Array(rotated), width: 10 });
    expect(output).toMatchObject({ width: 10, height: 20, format: 'jpeg' });
  });

  it('writes transparent pixels as white in a JPEG', async () => {
    const output = await run({ image: await makeImage(8, 8, 'png', [0, 0, 0, 0]), width: 4, format: 'jpeg' });
    const { data } = await sharp(output.file.data).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)].every((v) => v > 245)).toBe(true);
  });

  it('keeps GIF as PNG, with a warning', async () => {
    const output = await run({ image: await makeImage(10, 10, 'gif'), width: 5 });
    expect(output).toMatchObject({ format: 'png', width: 5, height: 5 });
    expect(output.warnings?.[0]).toMatch(/GIF is saved as PNG/);
  });

  it('asks for a width or a height', async () => {
    const error = await toolRefusal(async () => run({ image: await makeImage(8, 8) }));
    expect(error.details.field).toBe('width');
  });
});

describe('image-resize API', () => {
  it.each([
    [{ image: base64(heicStart), width: 4 }, 'unsupported_media_type', 415],
    [{ image: base64(pngHeaderOnly(8000, 8000)), width: 4 }, 'payload_too_large', 413],
    [{ image: 'not base64!', width: 4 }, 'validation_failed', 422],
    [{ image: base64(pngHeaderOnly(8, 8)), width: 0 }, 'validation_failed', 422],
    [{ image: base64(pngHeaderOnly(8, 8)), width: 4, fit: 'squash' }, 'validation_failed', 422],
  ])('%j → %s', async (input, code, status) => {
    expect(await apiRefusal('image-resize', input)).toMatchObject({ code, status });
  });

  it('resizes and returns the file as Base64', async () => {
    const output = (await runTool('image-resize', { image: base64(await makeImage(20, 10)), width: 10 })) as { file: { data: string }; width: number };
    expect(output.width).toBe(10);
    expect(typeof output.file.data).toBe('string');
  });
});
