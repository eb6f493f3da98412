import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/pdf-merge/core.js';
import { meta } from '../../../src/tools/pdf-merge/meta.js';
import { closeToolThreads, runTool } from '../../../src/tools/runner.js';
import type { ToolInputErrorKind } from '../../../src/tools/types.js';
import { exampleCases, exampleInput, expectExampleOutput, toolRefusal } from '../support.js';
import { base64, corruptPdf, encryptedPdf, hugePdf, notAPdf, pageCountOf, pdfWithText } from './fixtures.js';
import { expectApiRefusal, expectRefused } from './refusal.js';
import { extractedText } from './text.js';

afterAll(() => closeToolThreads());

describe('pdf-merge examples', () => {
  it.each(exampleCases(meta))('%s', async (_title, example) => {
    const output = await run(exampleInput(meta, example));
    expectExampleOutput(example, output);
    expect(await pageCountOf(output.file.data)).toBe(output.pageCount);
  });
});

describe('pdf-merge', () => {
  it('keeps the order of the inputs', async () => {
    const output = await run({ files: [await pdfWithText(['b1', 'b2']), await pdfWithText(['a1'])] });
    expect(await extractedText(output.file.data)).toEqual(['b1', 'b2', 'a1']);
  });

  it('gives the same bytes for the same inputs', async () => {
    const files = [await pdfWithText(['x']), await pdfWithText(['y'])];
    const first = await run({ files });
    const second = await run({ files });
    expect(second.file.data).toEqual(first.file.data);
  });

  it.each([
    ['a file that is not a PDF', async () => [await pdfWithText(['a']), notAPdf], 'files/1', 'unsupported_type', /File 2 is not a PDF/],
    ['an encrypted PDF', async () => [await encryptedPdf(), await pdfWithText(['a'])], 'files/0', undefined, /File 1 is an encrypted \(password-protected\) PDF/],
    ['a damaged PDF', async () => [await pdfWithText(['a']), corruptPdf], 'files/1', undefined, /File 2 could not be read/],
    ['an empty file', async () => [await pdfWithText(['a']), new Uint8Array()], 'files/1', undefined, /File 2 is empty/],
    ['a single file', async () => [await pdfWithText(['a'])], 'files', undefined, /at least two/],
  ])('refuses %s', async (_name, files, field, kind, message) => {
    const input = { files: await files() };
    await expectRefused(() => run(input), field, kind as ToolInputErrorKind | undefined, message);
  });

  it('refuses more than 2000 pages in total', async () => {
    const big = await hugePdf(1500);
    const error = await toolRefusal(() => run({ files: [big, big] }));
    expect(error.details).toMatchObject({ kind: 'too_large' });
    expect(error.message).toMatch(/3000 pages/);
  });
});

describe('pdf-merge through the API runner', () => {
  it('returns the merged PDF as Base64', async () => {
    const output = (await runTool('pdf-merge', { files: [base64(await pdfWithText(['a'])), base64(await pdfWithText(['b']))] })) as {
      file: { name: string; data: string };
      pageCount: number;
    };
    expect(output).toMatchObject({ pageCount: 2, file: { name: 'merged.pdf', type: 'application/pdf' } });
    expect(output.file.data.startsWith('JVBERi0')).toBe(true);
  });

  it.each([
    [{ files: ['JVBERi0xLjcK'] }, 'validation_failed', 422],
    [{ files: ['R0lGODlh', 'R0lGODlh'] }, 'unsupported_media_type', 415],
    [{ files: ['%%%', 'JVBERi0xLjcK'] }, 'validation_failed', 422],
    [{ files: ['JVBERi0xLjcK', 'JVBERi0xLjcK'], extra: 1 }, 'validation_failed', 422],
  ])('refuses %j with %s', async (input, code, status) => {
    await expectApiRefusal('pdf-merge', input, code, status);
  });
});
