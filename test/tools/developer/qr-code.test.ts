import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/qr-code/core.js';
import { meta } from '../../../src/tools/qr-code/meta.js';
import { run as read } from '../../../src/tools/qr-read/server.js';
import { toolRefusal } from '../support.js';
import { closeThreadsAfterAll, expectFirstExampleOverApi, itRunsExamples, runnerRefusal } from './helpers.js';

closeThreadsAfterAll();

describe('qr-code', () => {
  itRunsExamples(meta, run);

  it('writes a PNG that sharp decodes to the stated size, in black and white', async () => {
    const output = run({ text: 'size check', scale: 3, margin: 2 });
    expect(await sharp(output.file.data).metadata()).toMatchObject({ format: 'png', width: output.width, height: output.height, channels: 1 });
    const data = await sharp(output.file.data).extractChannel(0).raw().toBuffer();
    expect(new Set(data)).toEqual(new Set([0, 255]));
    expect(output.width).toBe((output.modules + 4) * 3);
  });

  it.each([['L'], ['M'], ['Q'], ['H']] as const)('round-trips UTF-8 text through a reader at level %s', async (level) => {
    const text = 'Grüße 👋 https://example.com/?q=1&r=2';
    const made = run({ text, errorCorrection: level, scale: 4 });
    expect((await read({ image: made.file.data })).result).toBe(text);
  });

  it('makes an SVG with one square per dark module', () => {
    const svg = run({ text: 'A', margin: 0 }).result;
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 21 21"/);
    expect(svg).not.toMatch(/<script|on\w+=/);
  });

  it('refuses text too long for the level, and empty text', async () => {
    const error = await toolRefusal(() => run({ text: 'x'.repeat(3000), errorCorrection: 'H' }));
    expect(error.details.field).toBe('text');
    expect(error.message).toMatch(/too long/);
    expect((await toolRefusal(() => run({ text: '' }))).details.field).toBe('text');
  });

  it('returns the PNG as Base64 over the API and answers 422 for too much text', async () => {
    await expectFirstExampleOverApi(meta);
    expect((await runnerRefusal('qr-code', { text: '9'.repeat(7089), errorCorrection: 'H' })).code).toBe('validation_failed');
  });
});
