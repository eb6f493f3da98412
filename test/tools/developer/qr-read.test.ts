import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { bytesToBase64 } from '../../../src/tools/shared/bytes.js';
import { run as make } from '../../../src/tools/qr-code/core.js';
import { imageSize, sniffImage } from '../../../src/tools/qr-read/image-header.js';
import { meta } from '../../../src/tools/qr-read/meta.js';
import { run } from '../../../src/tools/qr-read/server.js';
import { toolRefusal } from '../support.js';
import { closeThreadsAfterAll, expectFirstExampleOverApi, itRunsExamples, runnerRefusal } from './helpers.js';

closeThreadsAfterAll();

const qrPng = make({ text: 'read me', scale: 6 }).file.data;

/** A PNG whose header claims width × height (the pixel data is never reached). */
async function headerOnlyPng(width: number, height: number): Promise<Uint8Array> {
  const small = new Uint8Array(await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } }).png().toBuffer());
  const view = new DataView(small.buffer, small.byteOffset);
  view.setUint32(16, width);
  view.setUint32(20, height);
  return small;
}

describe('qr-read', () => {
  itRunsExamples(meta, run);

  it.each([['jpeg'], ['webp'], ['gif']] as const)('reads a QR code from a %s photo-like copy', async (format) => {
    const converted = new Uint8Array(await sharp(qrPng).flatten({ background: '#fff' }).resize(400).toFormat(format).toBuffer());
    expect(sniffImage(converted)).toBe(format);
    expect(imageSize(converted, format)).toEqual({ width: 400, height: 400 });
    expect((await run({ image: converted })).result).toBe('read me');
  });

  it('reads an inverted (light on dark) code', async () => {
    const inverted = new Uint8Array(await sharp(qrPng).negate().png().toBuffer());
    expect((await run({ image: inverted })).result).toBe('read me');
  });

  it('answers "no QR code" for an image without one', async () => {
    const blank = new Uint8Array(await sharp({ create: { width: 50, height: 50, channels: 3, background: '#888' } }).png().toBuffer());
    const error = await toolRefusal(() => run({ image: blank }));
    expect(error.details.field).toBe('image');
    expect(error.details.kind).toBeUndefined();
    expect(error.message).toMatch(/No QR code/);
  });

  it('refuses a 60-megapixel header before decoding', async () => {
    const huge = await headerOnlyPng(10_000, 6_000);
    expect((await toolRefusal(() => run({ image: huge }))).details.kind).toBe('too_large');
  });

  it('refuses files that are not images, and damaged images', async () => {
    expect((await toolRefusal(() => run({ image: new TextEncoder().encode('%PDF-1.7 not an image') }))).details.kind).toBe('unsupported_type');
    expect((await toolRefusal(() => run({ image: new Uint8Array(0) }))).details.kind).toBe('unsupported_type');
    const truncated = qrPng.subarray(0, 60);
    expect((await toolRefusal(() => run({ image: truncated }))).details).toMatchObject({ field: 'image' });
  });

  it('answers 415, 413 and 422 over the API', async () => {
    await expectFirstExampleOverApi(meta);
    expect((await runnerRefusal('qr-read', { image: bytesToBase64(new TextEncoder().encode('hello')) })).code).toBe('unsupported_media_type');
    expect((await runnerRefusal('qr-read', { image: bytesToBase64(await headerOnlyPng(8_000, 8_000)) })).code).toBe('payload_too_large');
    expect((await runnerRefusal('qr-read', { image: 'not base64!' })).code).toBe('validation_failed');
  });
});
