import { afterAll, describe, expect, it } from 'vitest';
import { closeToolThreads, runTool } from '../../../src/tools/runner.js';
import { meta } from '../../../src/tools/pdf-text-extract/meta.js';
import { run } from '../../../src/tools/pdf-text-extract/server.js';
import { exampleCases, exampleInput, expectExampleOutput } from '../support.js';
import { base64, blankPdf, corruptPdf, encryptedPdf, notAPdf, pdfWithText } from './fixtures.js';
import { expectApiRefusal, expectRefused } from './refusal.js';

afterAll(() => closeToolThreads());

describe('pdf-text-extract examples', () => {
  it.each(exampleCases(meta))('%s', async (_title, example) => {
    expectExampleOutput(example, await run(exampleInput(meta, example)));
  });
});

describe('pdf-text-extract', () => {
  it('keeps accented Western text', async () => {
    const output = await run({ file: await pdfWithText(['Café déjà vu']) });
    expect(output.result).toBe('Café déjà vu');
  });

  it('warns that a PDF without a text layer needs OCR', async () => {
    const output = await run({ file: await blankPdf(2) });
    expect(output.pages).toEqual([
      { page: 1, text: '' },
      { page: 2, text: '' },
    ]);
    expect(output.warnings?.[0]).toMatch(/no text layer.*OCR/);
  });

  it('does not change the caller’s bytes (pdf.js transfers its buffer)', async () => {
    const file = await pdfWithText(['x']);
    const copy = file.slice();
    await run({ file });
    expect(file).toEqual(copy);
  });

  it.each([
    ['not a PDF', async () => notAPdf, 'unsupported_type', /not a PDF/],
    ['password-protected', encryptedPdf, undefined, /encrypted \(password-protected\)/],
    ['damaged', async () => corruptPdf, undefined, /could not be read/],
    ['empty', async () => new Uint8Array(), undefined, /empty/],
  ] as const)('refuses a %s file', async (_name, make, kind, message) => {
    const file = await make();
    await expectRefused(() => run({ file }), 'file', kind, message);
  });

  it('runs through the API runner (pdf.js in a worker thread)', async () => {
    const output = await runTool('pdf-text-extract', { file: base64(await pdfWithText(['over the API'])) });
    expect(output).toMatchObject({ result: 'over the API', pageCount: 1 });
  });

  it('refuses an encrypted PDF through the API with 422', async () => {
    await expectApiRefusal('pdf-text-extract', { file: base64(await encryptedPdf()) }, 'validation_failed', 422);
  });
});

describe('pdf-text-extract on damaged files', () => {
  /**
   * A 3-page PDF with eight bytes changed (found by fuzzing): pdf.js opens it, fails on page 1,
   * and leaves a rejected promise behind in its in-thread worker.
   */
  async function damagedPdf(): Promise<Uint8Array> {
    const file = await pdfWithText(['a', 'b', 'c'], { objectStreams: false });
    const patches = [[334, 204], [357, 134], [623, 88], [726, 32], [776, 72], [937, 193], [1059, 207], [1263, 255]] as const;
    for (const [at, value] of patches) file[at] = value;
    return file;
  }

  it('refuses it as unreadable, and the tool thread keeps working', async () => {
    const file = base64(await damagedPdf());
    const first = await expectApiRefusal('pdf-text-extract', { file }, 'validation_failed', 422);
    expect(first.message).toMatch(/could not be read|damaged/);
    for (let i = 0; i < 3; i++) {
      expect(await runTool('pdf-text-extract', { file: base64(await pdfWithText(['still fine'])) })).toMatchObject({ result: 'still fine' });
    }
  });
});
