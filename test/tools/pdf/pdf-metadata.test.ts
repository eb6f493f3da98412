import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/pdf-metadata/core.js';
import { meta } from '../../../src/tools/pdf-metadata/meta.js';
import { closeToolThreads, runTool } from '../../../src/tools/runner.js';
import { exampleCases, exampleInput, expectExampleOutput } from '../support.js';
import { base64, pdfWithText } from './fixtures.js';
import { expectApiRefusal, expectRefused, itRefusesBadPdfs } from './refusal.js';

afterAll(() => closeToolThreads());

describe('pdf-metadata examples', () => {
  it.each(exampleCases(meta))('%s', async (_title, example) => {
    expectExampleOutput(example, await run(exampleInput(meta, example)));
  });
});

describe('pdf-metadata', () => {
  it('writes the fields so other readers see them', async () => {
    const output = await run({ file: await pdfWithText(['a']), mode: 'edit', author: 'Zoë', subject: 'Tests', modificationDate: '2026-05-01' });
    const reread = await PDFDocument.load(output.file?.data as Uint8Array, { updateMetadata: false });
    expect(reread.getAuthor()).toBe('Zoë');
    expect(reread.getSubject()).toBe('Tests');
    expect(reread.getModificationDate()?.toISOString()).toBe('2026-05-01T00:00:00.000Z');
  });

  it('reads a PDF without metadata as nulls', async () => {
    expect(await run({ file: await pdfWithText(['a', 'b']) })).toMatchObject({ title: null, author: null, creationDate: null, pageCount: 2, pageSizes: [{ width: 300, height: 200, pages: 2 }] });
  });

  it('gives the same bytes for the same edit', async () => {
    const file = await pdfWithText(['a']);
    const a = await run({ file, mode: 'edit', title: 'T' });
    const b = await run({ file, mode: 'edit', title: 'T' });
    expect(a.file?.data).toEqual(b.file?.data);
  });

  it.each([
    ['2026-02-30', /not a real calendar date/],
    ['2026-13-01', /not a real calendar date/],
    ['yesterday', /not a date/],
    ['2026-01-01T25:00:00Z', /impossible time/],
  ])('refuses the date %j', async (creationDate, message) => {
    await expectRefused(async () => run({ file: await pdfWithText(['a']), mode: 'edit', creationDate }), 'creationDate', undefined, message);
  });

  it('refuses edit mode without fields', async () => {
    await expectRefused(async () => run({ file: await pdfWithText(['a']), mode: 'edit' }), 'mode', undefined, /at least one field/);
  });

  itRefusesBadPdfs((file) => run({ file }));

  it('runs through the API and refuses unknown fields', async () => {
    const file = base64(await pdfWithText(['a']));
    expect(await runTool('pdf-metadata', { file })).toMatchObject({ pageCount: 1 });
    await expectApiRefusal('pdf-metadata', { file, colour: 'red' }, 'validation_failed', 422);
  });
});
