import { zlibSync } from 'fflate';
import { PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import { extract } from '../../src/knowledge/extraction/index.js';
import { readPdfPages } from '../../src/knowledge/extraction/pdf-read.js';
import { encryptedPdf } from '../tools/pdf/fixtures.js';
import { scannedPdf, textPdf } from './pdf-fixtures.js';
import { bytes, summary } from './helpers.js';

async function refusal(file: Uint8Array): Promise<DomainError> {
  const error = await readPdfPages(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('PDF extraction', () => {
  it('reads the text layer of every page into one record per page', async () => {
    const file = await textPdf([['Opening hours', 'Mon to Fri 9 to 17'], ['Returns within 30 days'], ['Contact: shop@example.com']]);
    const pages = await readPdfPages(file);
    expect(pages).toEqual(['Opening hours\nMon to Fri 9 to 17', 'Returns within 30 days', 'Contact: shop@example.com']);
    expect(summary(extract(file, 'pdf', undefined, pages))).toEqual([
      ['passage', 'Page 1', 'Opening hours\nMon to Fri 9 to 17'],
      ['passage', 'Page 2', 'Returns within 30 days'],
      ['passage', 'Page 3', 'Contact: shop@example.com'],
    ]);
  });

  it('lists pages without text as rejected and splits long pages at the size limit', () => {
    const result = extract(new Uint8Array(), 'pdf', { maxRecordChars: 20 }, ['First sentence here. Second one here.', '']);
    expect(summary(result)).toEqual([
      ['passage', 'Page 1', 'First sentence here.'],
      ['passage', 'Page 1', 'Second one here.'],
    ]);
    expect(result.rejected).toEqual([{ at: 'page 2', reason: expect.stringContaining('no text layer') }]);
  });

  it('refuses a scanned PDF (no text layer) and points to the OCR utility', async () => {
    const error = await refusal(await scannedPdf(2));
    expect(error.code).toBe('no_extractable_text');
    expect(error.extra).toEqual({ reason: 'no_text_layer' });
    expect(error.message).toMatch(/no text layer.*2 pages.*OCR/);
  });

  it('refuses an encrypted PDF clearly', async () => {
    const error = await refusal(await encryptedPdf());
    expect(error.code).toBe('no_extractable_text');
    expect(error.extra).toEqual({ reason: 'encrypted_pdf' });
    expect(error.message).toMatch(/encrypted \(password-protected\)/);
  });

  it('refuses a file that is not a PDF, and a damaged one', async () => {
    expect((await refusal(bytes('GIF89a not a pdf'))).code).toBe('unsupported_media_type');
    const damaged = await refusal(bytes('%PDF-1.7\n1 0 obj << /Type /Catalog garbage (((\n%%EOF'));
    expect(damaged.code).toBe('no_extractable_text');
    expect(damaged.extra).toEqual({ reason: 'unreadable_pdf' });
  });

  it('refuses a flate bomb by the inflate budget before pdf.js inflates it', async () => {
    const doc = await PDFDocument.create({ updateMetadata: false });
    const page = doc.addPage([200, 200]);
    const data = new Uint8Array(64 * 1024 * 1024).fill(0x20);
    data.set(new TextEncoder().encode('BT /F1 12 Tf 10 10 Td (boom) Tj ET\n'));
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(zlibSync(data, { level: 9 }), { Filter: 'FlateDecode' })));
    const error = await refusal(await doc.save({ useObjectStreams: false }));
    expect(error.code).toBe('payload_too_large');
    expect(error.message).toMatch(/expand to more than 16 MB/);
  });

  it('needs the pages read first', () => {
    expect(() => extract(new Uint8Array(), 'pdf')).toThrow(/pages read first/);
  });
});
