import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/pdf-split/core.js';
import { meta } from '../../../src/tools/pdf-split/meta.js';
import { closeToolThreads, runTool } from '../../../src/tools/runner.js';
import { exampleCases, exampleInput, expectExampleOutput } from '../support.js';
import { base64, hugePdf, pdfWithText } from './fixtures.js';
import { expectApiRefusal, expectRefused, itRefusesBadPdfs } from './refusal.js';
import { extractedText } from './text.js';

afterAll(() => closeToolThreads());

describe('pdf-split examples', () => {
  it.each(exampleCases(meta))('%s', async (_title, example) => {
    expectExampleOutput(example, await run(exampleInput(meta, example)));
  });
});

describe('pdf-split', () => {
  it('puts the right pages in each part, in the order written', async () => {
    const file = await pdfWithText(['p1', 'p2', 'p3', 'p4', 'p5']);
    const output = await run({ file, ranges: ' 4- , 1-2, 3 ' });
    expect(output.parts.map((p) => p.name)).toEqual(['pages-4-5.pdf', 'pages-1-2.pdf', 'page-3.pdf']);
    expect(await Promise.all(output.files.map((f) => extractedText(f.data)))).toEqual([['p4', 'p5'], ['p1', 'p2'], ['p3']]);
  });

  it('names a range asked for twice distinctly', async () => {
    const output = await run({ file: await pdfWithText(['a', 'b']), ranges: '1,1' });
    expect(output.files.map((f) => f.name)).toEqual(['page-1.pdf', 'page-1-2.pdf']);
  });

  it('reads -2 as from the first page', async () => {
    const output = await run({ file: await pdfWithText(['a', 'b', 'c']), ranges: '-2' });
    expect(output.parts).toEqual([{ name: 'pages-1-2.pdf', pageCount: 2 }]);
  });

  it.each([
    ['9', /^Page 9 does not exist: the PDF has 4 pages\.$/],
    ['2-9', /^Page 9 does not exist: the PDF has 4 pages\.$/],
    ['0', /start at 1/],
    ['3-1', /runs backwards; write 1-3/],
    ['1-2-3', /not a page or range/],
    ['one', /not a page or range/],
    ['-', /not a page or range/],
    [' , ', /at least one page/],
  ])('refuses the ranges %j', async (ranges, message) => {
    const file = await pdfWithText(['a', 'b', 'c', 'd']);
    await expectRefused(() => run({ file, ranges }), 'ranges', undefined, message);
  });

  it('says "1 page" for a one-page PDF', async () => {
    await expectRefused(async () => run({ file: await pdfWithText(['a']), ranges: '2' }), 'ranges', undefined, /the PDF has 1 page\.$/);
  });

  it('asks for ranges in ranges mode', async () => {
    await expectRefused(async () => run({ file: await pdfWithText(['a']) }), 'ranges', undefined, /Give the page ranges/);
  });

  itRefusesBadPdfs((file) => run({ file, mode: 'every-page' }), [
    ['over 2000 pages', () => hugePdf(), 'too_large', /2001 pages/],
  ]);
});

describe('pdf-split through the API runner', () => {
  it('returns every file as Base64', async () => {
    const output = (await runTool('pdf-split', { file: base64(await pdfWithText(['a', 'b'])), mode: 'every-page' })) as { files: { data: string }[] };
    expect(output.files).toHaveLength(2);
    for (const file of output.files) expect(file.data).toMatch(/^JVBERi0/);
  });

  it('refuses an out-of-range page with 422 at /body/ranges', async () => {
    const error = await expectApiRefusal('pdf-split', { file: base64(await pdfWithText(['a'])), ranges: '5' }, 'validation_failed', 422);
    expect(error.extra).toMatchObject({ errors: [{ location: '/body/ranges', message: 'Page 5 does not exist: the PDF has 1 page.' }] });
  });

  it('refuses an unknown mode', async () => {
    await expectApiRefusal('pdf-split', { file: base64(await pdfWithText(['a'])), mode: 'odd-pages' }, 'validation_failed', 422);
  });
});

describe('pdf-split limits', () => {
  it('refuses overlapping ranges that would copy over 10000 pages', async () => {
    const file = await pdfWithText(['a', 'b', 'c', 'd']);
    await expectRefused(() => run({ file, ranges: Array(2501).fill('1-').join(',') }), 'ranges', 'too_large', /10004 pages in all/);
  });
});
