import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/pdf-organize/core.js';
import { meta } from '../../../src/tools/pdf-organize/meta.js';
import { closeToolThreads } from '../../../src/tools/runner.js';
import { exampleCases, exampleInput, expectExampleOutput } from '../support.js';
import { base64, encryptedPdf, notAPdf, pdfWithText } from './fixtures.js';
import { expectApiRefusal, expectRefused } from './refusal.js';
import { extractedText } from './text.js';

afterAll(() => closeToolThreads());

describe('pdf-organize examples', () => {
  it.each(exampleCases(meta))('%s', async (_title, example) => {
    expectExampleOutput(example, await run(exampleInput(meta, example)));
  });
});

describe('pdf-organize', () => {
  it('puts pages in the listed order, deleting and repeating', async () => {
    const output = await run({ file: await pdfWithText(['one', 'two', 'three', 'four']), order: [4, 2, 2] });
    expect(await extractedText(output.file.data)).toEqual(['four', 'two', 'two']);
    expect(output.deletedPages).toEqual([1, 3]);
  });

  it('keeps the title', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    doc.setTitle('Kept');
    const output = await run({ file: await doc.save(), order: [1] });
    expect((await PDFDocument.load(output.file.data)).getTitle()).toBe('Kept');
  });

  it('refuses a page that does not exist, naming its place in the list', async () => {
    await expectRefused(async () => run({ file: await pdfWithText(['a', 'b']), order: [1, 5] }), 'order/1', undefined, /^Page 5 does not exist: the PDF has 2 pages\.$/);
  });

  it('refuses an empty order, a GIF and an encrypted PDF', async () => {
    await expectRefused(async () => run({ file: await pdfWithText(['a']), order: [] }), 'order', undefined, /at least one page/);
    await expectRefused(() => run({ file: notAPdf, order: [1] }), 'file', 'unsupported_type', /not a PDF/);
    await expectRefused(async () => run({ file: await encryptedPdf(), order: [1] }), 'file', undefined, /encrypted/);
  });

  it('refuses page 0 and fractions through the API', async () => {
    const file = base64(await pdfWithText(['a']));
    await expectApiRefusal('pdf-organize', { file, order: [0] }, 'validation_failed', 422);
    await expectApiRefusal('pdf-organize', { file, order: [1.5] }, 'validation_failed', 422);
  });
});
