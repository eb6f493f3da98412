import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { withoutColourProfile } from '../../../src/tools/shared/image-icc.js';
import { makeImage } from './fixtures.js';

/** Chromium's canvas output carries an sRGB profile; sharp can add one the same way. */
describe('withoutColourProfile', () => {
  it.each(['jpeg', 'webp'] as const)('drops the profile of a %s and keeps the pixels', async (format) => {
    const plain = sharp(await makeImage(16, 8, 'png', [200, 30, 30, 255], [30, 30, 200, 255]));
    const tagged = new Uint8Array(await plain.withIccProfile('srgb').toFormat(format, { quality: 90 }).toBuffer());
    expect((await sharp(tagged).metadata()).icc).toBeDefined();
    const stripped = withoutColourProfile(tagged, format);
    expect(stripped.length).toBeLessThan(tagged.length - 400);
    const metadata = await sharp(stripped).metadata();
    expect(metadata).toMatchObject({ format, width: 16, height: 8 });
    expect(metadata.icc).toBeUndefined();
    const pixels = async (bytes: Uint8Array) => [...(await sharp(bytes).raw().toBuffer())];
    expect(await pixels(stripped)).toEqual(await pixels(tagged));
  });

  it('leaves files without a profile, and PNG, unchanged', async () => {
    const jpeg = await makeImage(8, 8, 'jpeg');
    expect(withoutColourProfile(jpeg, 'jpeg')).toEqual(jpeg);
    const webp = await makeImage(8, 8, 'webp');
    expect(withoutColourProfile(webp, 'webp')).toBe(webp);
    const png = await makeImage(8, 8, 'png');
    expect(withoutColourProfile(png, 'png')).toBe(png);
  });
});
