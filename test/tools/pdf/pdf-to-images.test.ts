/** pdf-to-images renders only in the browser; here: its options, its pixel budget and its server refusal. */
import { describe, expect, it } from 'vitest';
import { maxPagesRendered, planImages, renderOptions, run } from '../../../src/tools/pdf-to-images/core.js';
import { pdfWithText } from './fixtures.js';
import { expectRefused } from './refusal.js';

const png = renderOptions({ file: new Uint8Array(), format: 'png', scale: 2 });

describe('pdf-to-images planning', () => {
  it('names images by page and rounds sizes up to whole pixels', () => {
    expect(planImages([{ index: 0, width: 400, height: 240.2 }], png)).toEqual([{ index: 0, name: 'page-1.png', width: 400, height: 241 }]);
    const jpeg = renderOptions({ file: new Uint8Array(), format: 'jpeg' });
    expect(planImages([{ index: 4, width: 10, height: 10 }], jpeg)[0]?.name).toBe('page-5.jpg');
  });

  it('refuses a page over 25 megapixels, and too many pixels in all, before rendering', () => {
    expect(() => planImages([{ index: 2, width: 6000, height: 6000 }], png)).toThrow(/Page 3 would be 6000×6000 pixels/);
    const pages = Array.from({ length: 10 }, (_, index) => ({ index, width: 5000, height: 4500 }));
    expect(() => planImages(pages, png)).toThrow(/225 megapixels in all/);
  });

  it('refuses more pages than it renders at once, as too large', async () => {
    const pages = Array.from({ length: maxPagesRendered + 1 }, (_, index) => ({ index, width: 10, height: 10 }));
    await expectRefused(() => planImages(pages, png), 'pages', 'too_large', /201 pages were chosen/);
  });

  it.each([
    [{ scale: 0.1 }, 'scale', /between 0.25 and 8/],
    [{ scale: 9 }, 'scale', /between 0.25 and 8/],
    [{ quality: 0 }, 'quality', /JPEG quality/],
    [{ format: 'gif' as 'png' }, 'format', /"png" or "jpeg"/],
  ])('refuses the options %j', async (options, field, message) => {
    await expectRefused(() => renderOptions({ file: new Uint8Array(), ...options }), field, undefined, message);
  });

  it('explains on the server that it runs only in the browser', async () => {
    await expectRefused(async () => run({ file: await pdfWithText(['a']) }), undefined, undefined, /runs only in the browser/);
  });
});
