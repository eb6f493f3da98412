import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { viewExif } from '../../../src/tools/exif-view-strip/core.js';
import { meta } from '../../../src/tools/exif-view-strip/meta.js';
import { run } from '../../../src/tools/exif-view-strip/server.js';
import { base64, inspect, makeImage } from './fixtures.js';
import { apiRefusal, describeExamples, describeFileRefusals } from './image-support.js';

describeExamples(meta, run);
describeFileRefusals(meta, run, { mode: 'view' }, { decodes: false });
describeFileRefusals({ ...meta, id: 'exif-view-strip (strip)' }, run, { mode: 'strip' });

async function withExif(format: 'jpeg' | 'webp' | 'png', exif: Record<string, Record<string, string>>): Promise<Uint8Array> {
  const image = sharp(await makeImage(16, 8, 'png')).withExif(exif);
  return new Uint8Array(await image.toFormat(format).toBuffer());
}

describe('exif-view-strip view', () => {
  it('reads camera fields without GPS, and no GPS warning', async () => {
    const view = await viewExif(await withExif('jpeg', { IFD0: { Make: 'Acme', Model: 'X1', Software: 'Editor 2' } }));
    expect(view).toMatchObject({ hasMetadata: true, make: 'Acme', model: 'X1', software: 'Editor 2' });
    expect(view.gps).toBeUndefined();
    expect(view.warnings).toBeUndefined();
  });

  it('says when there is no metadata', async () => {
    const view = await viewExif(await makeImage(4, 4, 'gif'));
    expect(view).toEqual({ result: 'No EXIF metadata found.', hasMetadata: false, tags: {} });
  });

  it('keeps hostile strings as plain, bounded text', async () => {
    const view = await viewExif(await withExif('jpeg', { IFD0: { Make: `<script>alert(1)</script>${'x'.repeat(2000)}` } }));
    expect(view.make?.startsWith('<script>')).toBe(true);
    expect(view.make?.length).toBeLessThanOrEqual(500);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
  });
});

describe('exif-view-strip strip', () => {
  it.each(['jpeg', 'webp', 'png'] as const)('removes the metadata of a %s', async (format) => {
    const image = await withExif(format, { IFD0: { Make: 'Acme' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '1/1 2/1 3/1', GPSLongitudeRef: 'W', GPSLongitude: '4/1 5/1 6/1' } });
    expect((await viewExif(image)).gps).toBeDefined();
    const output = (await run({ image, mode: 'strip' })) as { file: { data: Uint8Array }; format: string; removed: string[] };
    expect(output.format).toBe(format);
    expect(output.removed).toEqual(['EXIF', 'GPS']);
    expect((await inspect(output.file.data)).exif).toBe(false);
    expect((await viewExif(output.file.data)).hasMetadata).toBe(false);
  });

  it('turns the pixels upright, since the orientation tag is gone', async () => {
    const turned = await sharp(await makeImage(40, 20, 'jpeg')).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    expect(await run({ image: new Uint8Array(turned), mode: 'strip' })).toMatchObject({ width: 20, height: 40 });
  });

  it('API refuses an unknown mode', async () => {
    expect(await apiRefusal('exif-view-strip', { image: base64(await makeImage(4, 4)), mode: 'edit' })).toMatchObject({ code: 'validation_failed' });
  });
});
