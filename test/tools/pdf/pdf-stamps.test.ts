/** pdf-watermark and pdf-page-numbers: both draw Helvetica text on existing pages. */
import { afterAll, describe, expect, it } from 'vitest';
import { run as numberPages } from '../../../src/tools/pdf-page-numbers/core.js';
import { meta as numbersMeta } from '../../../src/tools/pdf-page-numbers/meta.js';
import { run as watermark } from '../../../src/tools/pdf-watermark/core.js';
import { meta as watermarkMeta } from '../../../src/tools/pdf-watermark/meta.js';
import { closeToolThreads } from '../../../src/tools/runner.js';
import { exampleCases, exampleInput, expectExampleOutput } from '../support.js';
import { base64, encryptedPdf, notAPdf, pdfWithText } from './fixtures.js';
import { expectApiRefusal, expectRefused } from './refusal.js';
import { extractedText } from './text.js';

afterAll(() => closeToolThreads());

describe('pdf-watermark examples', () => {
  it.each(exampleCases(watermarkMeta))('%s', async (_title, example) => {
    expectExampleOutput(example, await watermark(exampleInput(watermarkMeta, example)));
  });
});

describe('pdf-page-numbers examples', () => {
  it.each(exampleCases(numbersMeta))('%s', async (_title, example) => {
    expectExampleOutput(example, await numberPages(exampleInput(numbersMeta, example)));
  });
});

describe('pdf-watermark', () => {
  it('draws the text on the chosen pages only', async () => {
    const output = await watermark({ file: await pdfWithText(['one', 'two']), text: 'SECRET €', pages: '2', rotation: 0 });
    const pages = await extractedText(output.file.data);
    expect(pages[0]).toBe('one');
    expect(pages[1]).toContain('SECRET €');
  });

  it.each([
    ['Ω', /"Ω" \(U\+03A9\) cannot be drawn/],
    ['日本', /"日" \(U\+65E5\)/],
    ['ok 👋', /U\+1F44B/],
  ])('names the character of %j that Helvetica cannot draw', async (text, message) => {
    await expectRefused(async () => watermark({ file: await pdfWithText(['a']), text }), 'text', undefined, message);
  });

  it('refuses empty or multi-line text, bad opacity and colour', async () => {
    const file = await pdfWithText(['a']);
    await expectRefused(() => watermark({ file, text: '   ' }), 'text', undefined, /Give the watermark text/);
    await expectRefused(() => watermark({ file, text: 'a\nb' }), 'text', undefined, /one line/);
    await expectRefused(() => watermark({ file, text: 'a', opacity: 0 }), 'opacity', undefined, /Opacity/);
    await expectRefused(() => watermark({ file, text: 'a', color: 'red' }), 'color', undefined, /#808080/);
  });

  it('refuses an encrypted PDF and a GIF', async () => {
    await expectRefused(async () => watermark({ file: await encryptedPdf(), text: 'x' }), 'file', undefined, /encrypted/);
    await expectRefused(() => watermark({ file: notAPdf, text: 'x' }), 'file', 'unsupported_type', /not a PDF/);
  });
});

describe('pdf-page-numbers', () => {
  it('writes "Page n of total" on every page', async () => {
    const output = await numberPages({ file: await pdfWithText(['a', 'b', 'c']) });
    const pages = await extractedText(output.file.data);
    expect(pages.map((text) => text.replace(/^[abc]/, ''))).toEqual(['Page 1 of 3', 'Page 2 of 3', 'Page 3 of 3']);
  });

  it('starts at the given number and counts {total} to the last number written', async () => {
    const output = await numberPages({ file: await pdfWithText(['a', 'b', 'c']), template: '{n}/{total}', startAt: 5, pages: '2-' });
    expect(output.firstLabel).toBe('5/6');
    const pages = await extractedText(output.file.data);
    expect(pages).toEqual(['a', 'b5/6', 'c6/6']);
  });

  it('refuses a template Helvetica cannot draw, and a page that does not exist', async () => {
    const file = await pdfWithText(['a']);
    await expectRefused(() => numberPages({ file, template: 'Страница {n}' }), 'template', undefined, /"С" \(U\+0421\) cannot be drawn/);
    await expectRefused(() => numberPages({ file, pages: '2' }), 'pages', undefined, /Page 2 does not exist/);
  });

  it('refuses through the API an unknown position and a negative start', async () => {
    const file = base64(await pdfWithText(['a']));
    await expectApiRefusal('pdf-page-numbers', { file, position: 'middle' }, 'validation_failed', 422);
    await expectApiRefusal('pdf-page-numbers', { file, startAt: -1 }, 'validation_failed', 422);
    await expectApiRefusal('pdf-watermark', { file, text: 'Ω' }, 'validation_failed', 422);
  });
});

describe('stamps on rotated pages', () => {
  /** Where pdf.js sees the stamped text when it lays the page out as a viewer does (after /Rotate). */
  async function viewedText(bytes: Uint8Array, needle: string): Promise<{ x: number; y: number; upright: boolean; width: number; height: number }> {
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const { Util } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await getDocument({ data: bytes.slice(), verbosity: 0 }).promise;
    const page = await doc.getPage(1);
    const viewport = page.getViewport({ scale: 1 });
    const item = (await page.getTextContent()).items.find((i) => 'str' in i && i.str.includes(needle));
    if (!item || !('transform' in item)) throw new Error('text not found');
    // In viewport space y grows downwards; upright text has a positive a and zero b.
    const [a, b, , , x, y] = Util.transform(viewport.transform, item.transform as number[]) as number[];
    await doc.destroy();
    return { x: x as number, y: y as number, upright: (a as number) > 0 && Math.abs(b as number) < 1e-6, width: viewport.width, height: viewport.height };
  }

  it.each([90, 180, 270])('writes page numbers upright at the viewed bottom of a page turned %i°', async (angle) => {
    const { run: rotate } = await import('../../../src/tools/pdf-rotate/core.js');
    const turned = await rotate({ file: await pdfWithText(['x']), angle });
    const output = await numberPages({ file: turned.file.data, template: 'No {n}', margin: 10 });
    const seen = await viewedText(output.file.data, 'No 1');
    expect(seen.upright).toBe(true);
    // Baseline near the bottom edge of the page as shown, roughly centred.
    expect(seen.height - seen.y).toBeGreaterThan(5);
    expect(seen.height - seen.y).toBeLessThan(20);
    expect(Math.abs(seen.x - seen.width / 2)).toBeLessThan(30);
  });
});
