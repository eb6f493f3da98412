/**
 * Uploading `.csv`, `.pdf` and `.html` files (issue 13, item 5): the format is detected, records
 * come out by the rules of docs/ingestion.md, refusals are clear 422s and store nothing, and the
 * source list shows the new formats. A 100 kB upload limit and 20 record slots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, signedInClient, type TestServer } from '../support/server.js';
import { scannedPdf, textPdf } from '../extraction/pdf-fixtures.js';
import { expectProblem, startTestServer } from './helpers.js';

interface Report {
  source: { sourceName: string; format: string; addedCount: number };
  added: number;
  duplicate: number;
  rejected: number;
  items: { kind: string; title: string | null; preview: string; status: string }[];
}
interface RecordRow {
  kind: string;
  title: string | null;
  text: string;
}

let server: TestServer;
let alice: Client;

beforeAll(async () => {
  server = await startTestServer({ UPLOAD_MAX_BYTES: '100000', MAX_RECORDS_PER_KB: '20', MAX_KNOWLEDGE_BASES: '50' });
  alice = await signedInClient(server.baseUrl);
});
afterAll(() => server?.stop());

const base = (ragId: string) => `/api/v1/knowledge-bases/${ragId}`;

async function newKb(): Promise<string> {
  const created = await alice.post<{ ragId: string }>('/api/v1/knowledge-bases', { botName: 'Formats' });
  expect(created.status).toBe(201);
  return created.body.ragId;
}

async function recordsOf(ragId: string): Promise<RecordRow[]> {
  const response = await alice.get<{ items: RecordRow[] }>(`${base(ragId)}/records?limit=100`);
  expect(response.status).toBe(200);
  return response.body.items;
}

async function sourceFormats(ragId: string): Promise<string[]> {
  const response = await alice.get<{ items: { format: string }[] }>(`${base(ragId)}/sources?limit=100`);
  expect(response.status).toBe(200);
  return response.body.items.map((s) => s.format).sort();
}

describe('CSV uploads', () => {
  it('stores product rows (a European export: BOM, semicolons, CRLF) as product records', async () => {
    const ragId = await newKb();
    const csv = '\uFEFFName;Price;Description;Colour\r\nTrail Boot;"129,50 €";"Waterproof,\r\nleather";brown\r\n\r\nCity Shoe;89 €;Light;black\r\n';
    const response = await alice.upload<Report>(ragId, 'catalogue.csv', csv, 'application/vnd.ms-excel');
    expect(response.status).toBe(201);
    expect(response.body.source.format).toBe('csv');
    expect(response.body.added).toBe(2);
    expect(response.body.items.map((i) => [i.kind, i.title])).toEqual([
      ['product', 'Trail Boot'],
      ['product', 'City Shoe'],
    ]);
    const texts = (await recordsOf(ragId)).map((r) => r.text).sort();
    expect(texts).toEqual(['Name: City Shoe\nPrice: 89 €\nDescription: Light\nColour: black', 'Name: Trail Boot\nPrice: 129,50 €\nDescription: Waterproof,\nleather\nColour: brown']);
  });

  it('stores question/answer rows as Q&A; a repeated upload is all duplicates', async () => {
    const ragId = await newKb();
    const csv = 'question,answer\nDo you ship abroad?,"Yes, to the EU."\nCan I pay by card?,Yes.\n';
    const first = await alice.upload<Report>(ragId, 'faq', csv, 'text/csv');
    expect(first.status).toBe(201);
    expect(first.body.source.format).toBe('csv');
    expect(first.body.items.map((i) => [i.kind, i.title])).toEqual([
      ['qa', 'Do you ship abroad?'],
      ['qa', 'Can I pay by card?'],
    ]);
    const again = await alice.upload<Report>(ragId, 'faq-again.csv', csv);
    expect(again.status).toBe(201);
    expect([again.body.added, again.body.duplicate]).toEqual([0, 2]);
  });

  it('refuses a malformed CSV with a 422 naming the line, storing nothing', async () => {
    const ragId = await newKb();
    const response = await alice.upload(ragId, 'broken.csv', 'question,answer\nA?,Yes\n"B?,No\n');
    const body = expectProblem(response, 422, 'validation_failed');
    expect(body).toMatchObject({ line: 3, reason: 'malformed_csv' });
    expect(body.detail).toMatch(/line 3/);
    expect(await recordsOf(ragId)).toEqual([]);
  });
});

describe('PDF uploads', () => {
  it('stores one record per page of a text PDF', async () => {
    const ragId = await newKb();
    const pdf = await textPdf([['Opening hours', 'Monday to Friday, 9 to 17'], ['Returns are free within 30 days'], ['Write to shop@example.com']]);
    const response = await alice.upload<Report>(ragId, 'manual.pdf', pdf, 'application/pdf');
    expect(response.status).toBe(201);
    expect(response.body.source.format).toBe('pdf');
    expect(response.body.items.map((i) => [i.kind, i.title, i.preview])).toEqual([
      ['passage', 'Page 1', 'Opening hours\nMonday to Friday, 9 to 17'],
      ['passage', 'Page 2', 'Returns are free within 30 days'],
      ['passage', 'Page 3', 'Write to shop@example.com'],
    ]);
    expect(await sourceFormats(ragId)).toEqual(['pdf']);
  });

  it('refuses a scanned PDF (image pages, no text layer) with a clear 422 and stores nothing', async () => {
    const ragId = await newKb();
    const response = await alice.upload(ragId, 'scan.pdf', await scannedPdf(2));
    const body = expectProblem(response, 422, 'no_extractable_text');
    expect(body.reason).toBe('no_text_layer');
    expect(body.detail).toMatch(/no text layer/);
    expect(body.detail).toMatch(/OCR/);
    expect(await recordsOf(ragId)).toEqual([]);
    expect(await sourceFormats(ragId)).toEqual([]);
  });
});

describe('HTML uploads', () => {
  it('keeps the main content, drops navigation, header and footer, and splits at headings', async () => {
    const ragId = await newKb();
    const html = `<!doctype html><html><head><title>Help</title><script>track()</script></head><body>
      <header>Shop header</header><nav><a href="/">Home</a> <a href="/faq">FAQ</a></nav>
      <h1>Delivery</h1><p>We ship within two days.</p>
      <h2>Costs</h2><p>Shipping is free over 50 €.</p>
      <footer>© Shop · Imprint</footer></body></html>`;
    const response = await alice.upload<Report>(ragId, 'help.htm', html);
    expect(response.status).toBe(201);
    expect(response.body.source.format).toBe('html');
    expect(response.body.items.map((i) => [i.kind, i.title, i.preview])).toEqual([
      ['passage', 'Delivery', 'We ship within two days.'],
      ['passage', 'Delivery › Costs', 'Shipping is free over 50 €.'],
    ]);
    const all = (await recordsOf(ragId)).map((r) => r.text).join('\n');
    for (const dropped of ['Shop header', 'Home', 'Imprint', 'track']) expect(all).not.toContain(dropped);
  });

  it('detects HTML by content type when the name has no known extension', async () => {
    const ragId = await newKb();
    const response = await alice.upload<Report>(ragId, 'page', '<p>Hello from a page.</p>', 'text/html; charset=utf-8');
    expect(response.status).toBe(201);
    expect(response.body.source.format).toBe('html');
  });

  it('still refuses other formats with 415', async () => {
    const ragId = await newKb();
    const response = await alice.upload(ragId, 'letter.docx', 'PK...', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const body = expectProblem(response, 415, 'unsupported_media_type');
    expect(body.detail).toMatch(/\.csv, \.pdf or \.html/);
  });
});
