import { describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/image-base64/core.js';
import { meta } from '../../../src/tools/image-base64/meta.js';
import { base64, makeImage } from './fixtures.js';
import { apiRefusal, describeExamples, describeFileRefusals } from './image-support.js';

describeExamples(meta, run);
describeFileRefusals(meta, run, {}, { decodes: false });

describe('image-base64', () => {
  it.each(['jpeg', 'webp', 'gif'] as const)('names %s by its bytes', async (format) => {
    const image = await makeImage(6, 4, format);
    const output = run({ image });
    expect(output).toMatchObject({ mediaType: `image/${format}`, width: 6, height: 4, bytes: image.length });
    expect(output.result).toBe(`data:image/${format};base64,${base64(image)}`);
    expect(output.dataUriLength).toBe(output.result.length);
  });

  it('advises linking big images instead', async () => {
    const sharp = (await import('sharp')).default;
    const noise = sharp({ create: { width: 300, height: 300, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } });
    const image = new Uint8Array(await noise.png().toBuffer());
    expect(image.length).toBeGreaterThan(100_000);
    expect(run({ image }).warnings?.[0]).toMatch(/linking the file/);
  });

  it('API refuses non-images with 415', async () => {
    expect(await apiRefusal('image-base64', { image: base64(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')) })).toMatchObject({ code: 'unsupported_media_type', status: 415 });
  });
});
