import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/pdf-compress/core.js';
import { meta } from '../../../src/tools/pdf-compress/meta.js';
import { closeToolThreads } from '../../../src/tools/runner.js';
import { exampleCases, exampleInput, expectExampleOutput } from '../support.js';
import { base64, notAPdf, pdfWithText } from './fixtures.js';
import { expectApiRefusal, itRefusesBadPdfs } from './refusal.js';
import { extractedText } from './text.js';

afterAll(() => closeToolThreads());

/** A PDF carrying an object nothing refers to, as left by an earlier edit. */
async function pdfWithOrphan(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.addPage([100, 100]);
  doc.context.register(doc.context.flateStream('x'.repeat(5000) + Math.random().toString()));
  return doc.save({ useObjectStreams: false });
}

describe('pdf-compress examples', () => {
  it.each(exampleCases(meta))('%s', async (_title, example) => {
    expectExampleOutput(example, await run(exampleInput(meta, example)));
  });
});

describe('pdf-compress', () => {
  it('drops unreferenced objects and keeps the content', async () => {
    const file = await pdfWithOrphan();
    const output = await run({ file });
    expect(output.removedObjects).toBe(1);
    expect(output.bytesAfter).toBeLessThan(output.bytesBefore);
    expect(output.file.data.length).toBe(output.bytesAfter);
    expect(await PDFDocument.load(output.file.data).then((d) => d.getPageCount())).toBe(1);
  });

  it('keeps text readable', async () => {
    const output = await run({ file: await pdfWithText(['keep me', 'and me'], { objectStreams: false }) });
    expect(await extractedText(output.file.data)).toEqual(['keep me', 'and me']);
  });

  it('returns the very same bytes, with a warning, when it cannot do better', async () => {
    const file = await pdfWithText(['small']);
    const output = await run({ file });
    expect(output.file.data).toBe(file);
    expect(output.warnings?.[0]).toMatch(/original is returned unchanged/);
  });

  itRefusesBadPdfs((file) => run({ file }));

  it('refuses bad Base64 through the API', async () => {
    await expectApiRefusal('pdf-compress', { file: 'not*base64' }, 'validation_failed', 422);
    await expectApiRefusal('pdf-compress', { file: base64(notAPdf) }, 'unsupported_media_type', 415);
  });
});
