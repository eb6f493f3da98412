import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { squarePlan } from '../../../src/tools/favicon-gen/core.js';
import { meta } from '../../../src/tools/favicon-gen/meta.js';
import { run } from '../../../src/tools/favicon-gen/server.js';
import { readIcoEntries, writeIco } from '../../../src/tools/shared/image-ico.js';
import { base64, inspect, makeImage } from './fixtures.js';
import { apiRefusal, describeExamples, describeFileRefusals } from './image-support.js';

describeExamples(meta, run);
describeFileRefusals(meta, run);

describe('ICO writer', () => {
  it('writes a directory of PNG entries that reads back', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const ico = writeIco([
      { size: 16, png },
      { size: 256, png: png.subarray(0, 4) },
    ]);
    expect([...ico.subarray(0, 6)]).toEqual([0, 0, 1, 0, 2, 0]);
    expect(ico.length).toBe(6 + 2 * 16 + 7 + 4);
    expect(readIcoEntries(ico)).toEqual([
      { size: 16, png },
      { size: 256, png: png.subarray(0, 4) },
    ]);
  });
});

describe('favicon-gen', () => {
  it('makes every size from a square image, without warnings', async () => {
    const output = await run({ image: await makeImage(600, 600, 'jpeg') });
    expect(output.warnings).toBeUndefined();
    const [ico, ...pngs] = output.files;
    const entries = readIcoEntries(ico?.data ?? new Uint8Array());
    expect(entries.map((e) => e.size)).toEqual([16, 32, 48]);
    for (const entry of entries) expect(await inspect(entry.png)).toMatchObject({ format: 'png', width: entry.size, height: entry.size });
    expect(await Promise.all(pngs.map(async (f) => (await inspect(f.data)).width))).toEqual([180, 192, 512]);
  });

  it('centres a wide image on a transparent square', async () => {
    expect(squarePlan({ width: 200, height: 100 }, 32)).toMatchObject({ canvas: { width: 32, height: 32 }, target: { x: 0, y: 8, width: 32, height: 16 } });
    const output = await run({ image: await makeImage(200, 100, 'png', [255, 0, 0, 255]) });
    const icon = output.files.find((f) => f.name === 'icon-192.png');
    const { data, info } = await sharp(icon?.data).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ width: 192, height: 192 });
    expect(data[3]).toBe(0); // top-left corner: padding
    expect([...data.subarray((96 * 192 + 96) * 4, (96 * 192 + 96) * 4 + 4)]).toEqual([255, 0, 0, 255]);
  });

  it('API returns the files as Base64', async () => {
    const output = (await import('../../../src/tools/runner.js')).runTool('favicon-gen', { image: base64(await makeImage(64, 64)) });
    expect(((await output) as { files: { data: unknown }[] }).files.every((f) => typeof f.data === 'string')).toBe(true);
  });

  it('API refuses an unknown option', async () => {
    expect(await apiRefusal('favicon-gen', { image: base64(await makeImage(4, 4)), sizes: [16] })).toMatchObject({ code: 'validation_failed' });
  });
});
