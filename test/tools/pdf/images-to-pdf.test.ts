import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/images-to-pdf/core.js';
import { imageSize } from '../../../src/tools/images-to-pdf/image-header.js';
import { meta } from '../../../src/tools/images-to-pdf/meta.js';
import { closeToolThreads } from '../../../src/tools/runner.js';
import { exampleCases, exampleInput, expectExampleOutput } from '../support.js';
import { base64 } from './fixtures.js';
import { expectApiRefusal, expectRefused } from './refusal.js';

afterAll(() => closeToolThreads());

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#336699' } });
const png = async (w: number, h: number) => new Uint8Array(await solid(w, h).png().toBuffer());
const jpeg = async (w: number, h: number) => new Uint8Array(await solid(w, h).jpeg().toBuffer());

async function pageSizes(bytes: Uint8Array): Promise<number[][]> {
  return (await PDFDocument.load(bytes)).getPages().map((p) => [Math.round(p.getWidth()), Math.round(p.getHeight())]);
}

/** A PNG whose header claims width × height, with no pixel data behind it. */
function pngHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  return bytes;
}

describe('images-to-pdf examples', () => {
  it.each(exampleCases(meta))('%s', async (_title, example) => {
    expectExampleOutput(example, await run(exampleInput(meta, example)));
  });
});

describe('images-to-pdf', () => {
  it('makes pages the size of each image in fit mode', async () => {
    const output = await run({ images: [await png(40, 30), await jpeg(20, 50)] });
    expect(await pageSizes(output.file.data)).toEqual([
      [40, 30],
      [20, 50],
    ]);
  });

  it('uses A4 portrait and landscape, Letter portrait', async () => {
    const a4 = await run({ images: [await png(30, 40), await png(40, 30)], pageSize: 'a4' });
    expect(await pageSizes(a4.file.data)).toEqual([
      [595, 842],
      [842, 595],
    ]);
    const letter = await run({ images: [await jpeg(10, 10)], pageSize: 'letter', margin: 0 });
    expect(await pageSizes(letter.file.data)).toEqual([[612, 792]]);
  });

  it('reads JPEG dimensions from the frame header', async () => {
    expect(imageSize(await jpeg(123, 45), 'jpeg')).toEqual({ width: 123, height: 45 });
  });

  it.each([
    ['WebP', async () => new Uint8Array(await solid(4, 4).webp().toBuffer()), /Image 1 is a WebP file: only JPEG and PNG/],
    ['GIF', async () => new Uint8Array(await solid(4, 4).gif().toBuffer()), /a GIF file/],
    ['text', async () => new TextEncoder().encode('hello'), /not a JPEG or PNG image/],
  ])('refuses a %s file with 415', async (_name, make, message) => {
    const image = await make();
    await expectRefused(() => run({ images: [image] }), 'images/0', 'unsupported_type', message);
  });

  it('refuses a 60-megapixel image from its header, before decoding', async () => {
    await expectRefused(() => run({ images: [pngHeader(10_000, 6_000)] }), 'images/0', 'too_large', /10000×6000 pixels/);
  });

  it('refuses a damaged PNG and an empty file', async () => {
    const broken = pngHeader(10, 10);
    await expectRefused(() => run({ images: [broken] }), 'images/0', undefined, /could not be read/);
    await expectRefused(async () => run({ images: [await png(2, 2), new Uint8Array()] }), 'images/1', undefined, /Image 2 is empty/);
  });

  it('refuses through the API: WebP 415, no images 422', async () => {
    await expectApiRefusal('images-to-pdf', { images: [base64(new Uint8Array(await solid(4, 4).webp().toBuffer()))] }, 'unsupported_media_type', 415);
    await expectApiRefusal('images-to-pdf', { images: [] }, 'validation_failed', 422);
    await expectApiRefusal('images-to-pdf', { images: [base64(await png(2, 2))], margin: 500 }, 'validation_failed', 422);
  });
});
