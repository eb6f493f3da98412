/**
 * Flate bombs (issue 11): a small PDF whose compressed streams inflate to far more than the file,
 * refused by every PDF tool before pdf-lib or pdf.js inflates anything (shared/pdf-inflate-budget.ts).
 */
import { zlibSync } from 'fflate';
import { PDFDocument, PDFName } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { run as merge } from '../../../src/tools/pdf-merge/core.js';
import { run as rotate } from '../../../src/tools/pdf-rotate/core.js';
import { run as extract } from '../../../src/tools/pdf-text-extract/server.js';
import { closeToolThreads } from '../../../src/tools/runner.js';
import { assertInflateBudget, inflateBudgetFor, maxInflateBudget, minInflateBudget } from '../../../src/tools/shared/pdf-inflate-budget.js';
import { base64, pdfWithText } from './fixtures.js';
import { expectApiRefusal, expectRefused } from './refusal.js';

afterAll(() => closeToolThreads());

const mb = 1024 * 1024;

/** A one-page PDF whose content stream is `layers` Flate layers over `inflated` bytes of text operators. */
async function bomb(inflated: number, layers = 1): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([200, 200]);
  let data: Uint8Array = new Uint8Array(inflated).fill(0x20);
  data.set(new TextEncoder().encode('BT /F1 12 Tf 10 10 Td (boom) Tj ET\n'));
  for (let i = 0; i < layers; i++) data = zlibSync(data, { level: 9 });
  const filter = layers === 1 ? 'FlateDecode' : Array<string>(layers).fill('FlateDecode');
  const contents = doc.context.register(doc.context.stream(data, { Filter: filter }));
  page.node.set(PDFName.of('Contents'), contents);
  return doc.save({ useObjectStreams: false });
}

describe('flate bombs', () => {
  it('sizes the budget from the file: at least 16 MB, 32× the file, at most 512 MB', () => {
    expect(inflateBudgetFor(1000)).toBe(minInflateBudget);
    expect(inflateBudgetFor(2 * mb)).toBe(64 * mb);
    expect(inflateBudgetFor(100 * mb)).toBe(maxInflateBudget);
  });

  it('pdf-text-extract refuses a 64 MB content stream in a small file, quickly, as too large', async () => {
    const file = await bomb(64 * mb);
    expect(file.length).toBeLessThan(200_000);
    const started = performance.now();
    await expectRefused(() => extract({ file }), 'file', 'too_large', /expand to more than 16 MB/);
    // Refused after inflating the budget, not the whole bomb (generous bound for a busy machine).
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('counts every Flate layer: two layers of a small stream are still a bomb', async () => {
    const file = await bomb(64 * mb, 2);
    expect(file.length).toBeLessThan(20_000);
    await expectRefused(() => extract({ file }), 'file', 'too_large', /decompression bomb/);
  });

  it('the pdf-lib tools refuse it too, naming the file', async () => {
    const file = await bomb(32 * mb);
    await expectRefused(() => rotate({ file, angle: 90 } as never), 'file', 'too_large', /expand to more than/);
    const ok = await pdfWithText(['ok']);
    await expectRefused(() => merge({ files: [ok, file] } as never), 'files/1', 'too_large', /^File 2 holds compressed streams/);
  });

  it('accepts ordinary PDFs, whose streams inflate far below the budget', async () => {
    const file = await pdfWithText(['Within budget']);
    expect(() => assertInflateBudget(file, 'file')).not.toThrow();
    expect((await extract({ file })).result).toBe('Within budget');
  });

  it('the API answers 413 payload_too_large', async () => {
    const error = await expectApiRefusal('pdf-text-extract', { file: base64(await bomb(32 * mb)) }, 'payload_too_large', 413);
    expect(error.message).toMatch(/decompression bomb/);
  });
});
