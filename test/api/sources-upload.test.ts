/**
 * `/api/v1/knowledge-bases/{ragId}/sources[/{sourceId}]`: multipart upload,
 * JSON paste, duplicates, quota, bad input, listing and deleting sources
 * (product.md §3, §4). The server has a 1000-byte upload limit and 5 record slots.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, signedInClient, type TestServer } from '../support/server.js';
import { expectProblem, rowsForKnowledgeBase, startTestServer } from './helpers.js';

interface Source {
  sourceId: string;
  sourceName: string;
  format: string;
  byteSize: number;
  sha256: string;
  addedCount: number;
  duplicateCount: number;
  rejectedCount: number;
  createdAt: string;
}
interface Report {
  source: Source;
  added: number;
  duplicate: number;
  rejected: number;
  rejections: { at: string; reason: string }[];
  items: { kind: string; title: string | null; preview: string; fingerprint: string; status: 'added' | 'duplicate'; recordId?: string }[];
  quota: { limit: number; used: number; available: number };
}
interface Kb {
  ragId: string;
  contentVersion: number;
  recordCount: number;
  quota: { limit: number; used: number; available: number };
}
interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

const MAX_BYTES = 1000;
const SLOTS = 5;

let server: TestServer;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  server = await startTestServer({ UPLOAD_MAX_BYTES: String(MAX_BYTES), MAX_RECORDS_PER_KB: String(SLOTS), MAX_KNOWLEDGE_BASES: '50' });
  [alice, bob] = await Promise.all([signedInClient(server.baseUrl), signedInClient(server.baseUrl)]);
});
afterAll(() => server?.stop());

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const base = (ragId: string) => `/api/v1/knowledge-bases/${ragId}`;

/** `n` distinct Q&A objects as a JSON array, starting at number `from`. */
function faqJson(from: number, n: number): string {
  return JSON.stringify(Array.from({ length: n }, (_, k) => ({ question: `What is item ${from + k}?`, answer: `Item ${from + k} is a thing.` })));
}

async function newKb(client: Client = alice): Promise<string> {
  const created = await client.post<Kb>('/api/v1/knowledge-bases', { botName: 'Uploads' });
  expect(created.status).toBe(201);
  return created.body.ragId;
}

async function kbOf(client: Client, ragId: string): Promise<Kb> {
  const response = await client.get<Kb>(base(ragId));
  expect(response.status).toBe(200);
  return response.body;
}

async function sourcesOf(client: Client, ragId: string): Promise<Source[]> {
  const response = await client.get<Page<Source>>(`${base(ragId)}/sources?limit=100`);
  expect(response.status).toBe(200);
  return response.body.items;
}

async function recordsOf(client: Client, ragId: string): Promise<{ recordId: string; sourceId: string; text: string }[]> {
  const response = await client.get<Page<{ recordId: string; sourceId: string; text: string }>>(`${base(ragId)}/records?limit=100`);
  expect(response.status).toBe(200);
  return response.body.items;
}

/** Nothing of a refused upload may be stored. */
async function expectUnchanged(client: Client, ragId: string, before: Kb, sources: number, records: number): Promise<void> {
  const after = await kbOf(client, ragId);
  expect(after.recordCount).toBe(before.recordCount);
  expect(after.contentVersion).toBe(before.contentVersion);
  expect((await sourcesOf(client, ragId)).length).toBe(sources);
  expect((await recordsOf(client, ragId)).length).toBe(records);
}

describe('happy path', () => {
  it('uploads a .json file as multipart and reports the source, counts, items and quota', async () => {
    const ragId = await newKb();
    const content = JSON.stringify([
      { question: 'Do you ship abroad?', answer: 'Yes, to every EU country.' },
      { name: 'Blue mug', price: '12 EUR', description: 'A blue ceramic mug.' },
    ]);
    const response = await alice.upload<Report>(ragId, 'catalogue.json', content, 'application/json');
    expect(response.status).toBe(201);
    const report = response.body;
    expect(report.source).toEqual({
      sourceId: report.source.sourceId,
      sourceName: 'catalogue.json',
      format: 'json',
      byteSize: Buffer.byteLength(content),
      sha256: sha256(content),
      addedCount: 2,
      duplicateCount: 0,
      rejectedCount: 0,
      createdAt: report.source.createdAt,
    });
    expect(report).toMatchObject({ added: 2, duplicate: 0, rejected: 0, rejections: [], quota: { limit: SLOTS, used: 2, available: 3 } });
    expect(report.items.map(({ kind, title, status }) => ({ kind, title, status }))).toEqual([
      { kind: 'qa', title: 'Do you ship abroad?', status: 'added' },
      { kind: 'product', title: 'Blue mug', status: 'added' },
    ]);
    const records = await recordsOf(alice, ragId);
    expect(records.map((r) => r.recordId)).toEqual(report.items.map((i) => i.recordId));
    expect(records.every((r) => r.sourceId === report.source.sourceId)).toBe(true);
  });

  it('uploads .jsonl, .txt and .md files with the right format and kinds', async () => {
    const ragId = await newKb();
    const jsonl = '{"question":"Is there a warranty?","answer":"Two years on every product."}\n{"colour":"red","size":"L"}\n';
    const jsonlReport = await alice.upload<Report>(ragId, 'faq.jsonl', jsonl);
    expect(jsonlReport.status).toBe(201);
    expect(jsonlReport.body.source.format).toBe('jsonl');
    expect(jsonlReport.body.items.map((i) => i.kind)).toEqual(['qa', 'passage']);

    const txt = 'Q: When do you open?\nA: At nine in the morning.\n';
    const txtReport = await alice.upload<Report>(ragId, 'hours.txt', txt, 'text/plain');
    expect(txtReport.status).toBe(201);
    expect(txtReport.body.source.format).toBe('txt');
    expect(txtReport.body.items.map((i) => [i.kind, i.title])).toEqual([['qa', 'When do you open?']]);

    const md = '# Shipping\n\nParcels leave our warehouse within two working days.\n\n# Payment\n\nWe accept cards and bank transfers.\n';
    const mdReport = await alice.upload<Report>(ragId, 'guide.md', md);
    expect(mdReport.status).toBe(201);
    expect(mdReport.body.source.format).toBe('md');
    expect(mdReport.body.items.map((i) => [i.kind, i.title])).toEqual([
      ['passage', 'Shipping'],
      ['passage', 'Payment'],
    ]);
    expect(mdReport.body.quota).toEqual({ limit: SLOTS, used: 5, available: 0 });
    expect((await sourcesOf(alice, ragId)).map((s) => [s.sourceName, s.format, s.addedCount])).toEqual([
      ['faq.jsonl', 'jsonl', 2],
      ['hours.txt', 'txt', 1],
      ['guide.md', 'md', 2],
    ]);
  });

  it('pastes text as JSON {name, text, format}; format defaults to txt', async () => {
    const ragId = await newKb();
    const pasted = await alice.post<Report>(`${base(ragId)}/sources`, { name: 'Warranty', text: 'Q: Is there a warranty?\nA: Two years.' });
    expect(pasted.status).toBe(201);
    expect(pasted.body.source).toMatchObject({ sourceName: 'Warranty', format: 'txt', addedCount: 1, byteSize: 37 });
    expect(pasted.body.items).toMatchObject([{ kind: 'qa', title: 'Is there a warranty?', status: 'added' }]);

    const markdown = await alice.post<Report>(`${base(ragId)}/sources`, { name: 'Returns', format: 'md', text: '# Returns\n\nWithin thirty days.' });
    expect(markdown.status).toBe(201);
    expect(markdown.body.source).toMatchObject({ sourceName: 'Returns', format: 'md', addedCount: 1 });
    expect(markdown.body.items).toMatchObject([{ kind: 'passage', title: 'Returns', status: 'added' }]);

    const json = await alice.post<Report>(`${base(ragId)}/sources`, { name: 'FAQ', format: 'json', text: faqJson(1, 2) });
    expect(json.status).toBe(201);
    expect(json.body).toMatchObject({ added: 2, source: { format: 'json' }, quota: { used: 4, available: 1 } });
  });

  it('names the source from the form field `name`, else from the file name without its path', async () => {
    const ragId = await newKb();
    const form = new FormData();
    form.append('name', 'Opening hours');
    form.append('file', new Blob(['Q: Open on Sunday?\nA: No.']), 'hours.txt');
    const named = await alice.request<Report>('POST', `${base(ragId)}/sources`, form);
    expect(named.status).toBe(201);
    expect(named.body.source.sourceName).toBe('Opening hours');

    const pathy = await alice.upload<Report>(ragId, 'C:\\Users\\me\\docs\\faq.txt', 'Q: Open on Monday?\nA: Yes.');
    expect(pathy.status).toBe(201);
    expect(pathy.body.source.sourceName).toBe('faq.txt');
  });

  it('reports items it could not use as rejected, with where they are', async () => {
    const ragId = await newKb();
    const content = JSON.stringify({ faqs: [{ question: 'Can I pay by card?', answer: 'Yes.' }, 5] });
    const response = await alice.upload<Report>(ragId, 'faqs.json', content);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ added: 1, duplicate: 0, rejected: 1, source: { rejectedCount: 1 } });
    expect(response.body.rejections).toEqual([{ at: 'item 2', reason: expect.any(String) }]);
  });

  it('reports duplicates inside one file; they use no quota', async () => {
    const ragId = await newKb();
    const twice = JSON.stringify([
      { question: 'What is A?', answer: 'A letter.' },
      { question: 'What is A?', answer: 'A   letter.' }, // same text once white space is collapsed
      { question: 'What is B?', answer: 'Another letter.' },
    ]);
    const response = await alice.upload<Report>(ragId, 'twice.json', twice);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ added: 2, duplicate: 1, quota: { used: 2, available: 3 }, source: { addedCount: 2, duplicateCount: 1 } });
    expect(response.body.items.map((i) => i.status)).toEqual(['added', 'duplicate', 'added']);
    expect(response.body.items[0]?.fingerprint).toBe(response.body.items[1]?.fingerprint);
    expect(response.body.items[1]).not.toHaveProperty('recordId');
    expect((await recordsOf(alice, ragId)).length).toBe(2);
  });

  it('reports duplicates across uploads; a repeated upload adds nothing and uses no quota', async () => {
    const ragId = await newKb();
    const first = await alice.upload<Report>(ragId, 'faq.json', faqJson(1, 3));
    expect(first.body).toMatchObject({ added: 3, duplicate: 0, quota: { used: 3 } });
    const again = await alice.upload<Report>(ragId, 'faq-copy.json', faqJson(1, 3));
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ added: 0, duplicate: 3, quota: { limit: SLOTS, used: 3, available: 2 } });
    expect(again.body.items.map((i) => i.status)).toEqual(['duplicate', 'duplicate', 'duplicate']);
    const overlap = await alice.upload<Report>(ragId, 'faq-more.json', faqJson(3, 2));
    expect(overlap.body).toMatchObject({ added: 1, duplicate: 1, quota: { used: 4, available: 1 } });
    expect(overlap.body.items.map((i) => i.status)).toEqual(['duplicate', 'added']);
    expect((await recordsOf(alice, ragId)).length).toBe(4);
    expect((await kbOf(alice, ragId)).recordCount).toBe(4);
  });

  it('changes the content version on every upload that adds records', async () => {
    const ragId = await newKb();
    const v0 = (await kbOf(alice, ragId)).contentVersion;
    await alice.upload(ragId, 'a.json', faqJson(1, 1));
    const v1 = (await kbOf(alice, ragId)).contentVersion;
    await alice.post(`${base(ragId)}/sources`, { name: 'b', format: 'json', text: faqJson(2, 1) });
    const v2 = (await kbOf(alice, ragId)).contentVersion;
    expect(new Set([v0, v1, v2]).size).toBe(3);
  });

  it('deletes a source with its records (204), freeing slots and changing the content version', async () => {
    const ragId = await newKb();
    const keep = await alice.upload<Report>(ragId, 'keep.json', faqJson(1, 2));
    const drop = await alice.upload<Report>(ragId, 'drop.json', faqJson(10, 3));
    const before = await kbOf(alice, ragId);
    expect(before.recordCount).toBe(5);

    const removed = await alice.delete(`${base(ragId)}/sources/${drop.body.source.sourceId}`);
    expect(removed.status).toBe(204);
    expect(removed.body).toBe('');
    const after = await kbOf(alice, ragId);
    expect(after.recordCount).toBe(2);
    expect(after.quota).toEqual({ limit: SLOTS, used: 2, available: 3 });
    expect(after.contentVersion).not.toBe(before.contentVersion);
    expect((await sourcesOf(alice, ragId)).map((s) => s.sourceId)).toEqual([keep.body.source.sourceId]);
    expect(new Set((await recordsOf(alice, ragId)).map((r) => r.sourceId))).toEqual(new Set([keep.body.source.sourceId]));
    expect(rowsForKnowledgeBase(server, 'records', ragId).length).toBe(2);

    // The deleted records are no longer duplicates: uploading them again adds them.
    const again = await alice.upload<Report>(ragId, 'drop.json', faqJson(10, 3));
    expect(again.body).toMatchObject({ added: 3, duplicate: 0 });
    expectProblem(await alice.delete(`${base(ragId)}/sources/${drop.body.source.sourceId}`), 404, 'not_found');
  });

  it('pages the sources list with limit and cursor', async () => {
    const ragId = await newKb();
    const ids: string[] = [];
    for (let k = 0; k < 5; k++) ids.push((await alice.upload<Report>(ragId, `s${k}.json`, faqJson(k, 1))).body.source.sourceId);
    const seen: string[] = [];
    let cursor: string | null = null;
    const pageSizes: number[] = [];
    do {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2';
      const page: { status: number; body: Page<Source> } = await alice.get<Page<Source>>(`${base(ragId)}/sources${query}`);
      expect(page.status).toBe(200);
      pageSizes.push(page.body.items.length);
      seen.push(...page.body.items.map((s) => s.sourceId));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(pageSizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(ids);
  });
});

describe('errors', () => {
  it('refuses a file over UPLOAD_MAX_BYTES with 413 payload_too_large and stores nothing', async () => {
    const ragId = await newKb();
    const before = await kbOf(alice, ragId);
    const response = await alice.upload(ragId, 'big.txt', 'a'.repeat(MAX_BYTES + 1), 'text/plain');
    expect(expectProblem(response, 413, 'payload_too_large', server.baseUrl)).toMatchObject({ limitBytes: MAX_BYTES });
    await expectUnchanged(alice, ragId, before, 0, 0);
    // Exactly at the limit is accepted.
    const atLimit = await alice.upload<Report>(ragId, 'limit.txt', `${'word '.repeat(MAX_BYTES / 5 - 1)}ends.`, 'text/plain');
    expect(atLimit.status).toBe(201);
    expect(atLimit.body.source.byteSize).toBe(MAX_BYTES);
  });

  it('refuses pasted text over UPLOAD_MAX_BYTES, and a JSON body far over it, with 413', async () => {
    const ragId = await newKb();
    const before = await kbOf(alice, ragId);
    const overText = await alice.post(`${base(ragId)}/sources`, { name: 'long', text: 'word '.repeat(MAX_BYTES / 5 + 1) });
    expect(expectProblem(overText, 413, 'payload_too_large')).toMatchObject({ limitBytes: MAX_BYTES });
    const overBody = await alice.post(`${base(ragId)}/sources`, { name: 'huge', text: 'x'.repeat(3 * MAX_BYTES + 70_000) });
    expectProblem(overBody, 413, 'payload_too_large');
    await expectUnchanged(alice, ragId, before, 0, 0);
  });

  it('refuses an unsupported file type (photo.png) with 415 unsupported_media_type', async () => {
    const ragId = await newKb();
    const before = await kbOf(alice, ragId);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const response = await alice.upload(ragId, 'photo.png', png, 'image/png');
    const body = expectProblem(response, 415, 'unsupported_media_type', server.baseUrl);
    expect(body.detail).toContain('photo.png');
    expectProblem(await alice.upload(ragId, 'letter.docx', 'PK\u0003\u0004', 'application/octet-stream'), 415, 'unsupported_media_type');
    // PDF is a format now (issue 13): a damaged one is refused as unreadable, not as unsupported.
    const damaged = expectProblem(await alice.upload(ragId, 'report.pdf', '%PDF-1.7', 'application/octet-stream'), 422, 'no_extractable_text');
    expect(damaged.reason).toBe('unreadable_pdf');
    await expectUnchanged(alice, ragId, before, 0, 0);
  });

  it('refuses invalid JSON with 422 invalid_json naming the line and column', async () => {
    const ragId = await newKb();
    const before = await kbOf(alice, ragId);
    const response = await alice.upload(ragId, 'bad.json', '[\n  {"question": "a",\n   "answer": }\n]');
    expect(expectProblem(response, 422, 'invalid_json', server.baseUrl)).toMatchObject({ line: 3, column: 14 });
    const lines = await alice.upload(ragId, 'bad.jsonl', '{"question":"a","answer":"b"}\n{"q": x}\n');
    expect(expectProblem(lines, 422, 'invalid_json')).toMatchObject({ line: 2, column: 7 });
    const pasted = await alice.post(`${base(ragId)}/sources`, { name: 'p', format: 'json', text: '{"a": 1,}' });
    expect(expectProblem(pasted, 422, 'invalid_json')).toMatchObject({ line: 1, column: 9 });
    await expectUnchanged(alice, ragId, before, 0, 0);
  });

  it('refuses a file that is not UTF-8 with 422 invalid_utf8 and the byte offset', async () => {
    const ragId = await newKb();
    const before = await kbOf(alice, ragId);
    const latin1 = new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x20, 0x6f, 0x70, 0x65, 0x6e]); // "Café open" in ISO-8859-1
    const response = await alice.upload(ragId, 'menu.txt', latin1, 'text/plain');
    expect(expectProblem(response, 422, 'invalid_utf8', server.baseUrl)).toMatchObject({ offset: 3 });
    await expectUnchanged(alice, ragId, before, 0, 0);
  });

  it('refuses an empty file, a blank file and JSON without records with 422 no_extractable_text', async () => {
    const ragId = await newKb();
    const before = await kbOf(alice, ragId);
    expectProblem(await alice.upload(ragId, 'empty.txt', ''), 422, 'no_extractable_text', server.baseUrl);
    expectProblem(await alice.upload(ragId, 'blank.md', ' \n\n\t\n'), 422, 'no_extractable_text');
    expectProblem(await alice.upload(ragId, 'numbers.json', '[1, 2, 3]'), 422, 'no_extractable_text');
    expectProblem(await alice.post(`${base(ragId)}/sources`, { name: 'nothing', text: '' }), 422, 'no_extractable_text');
    await expectUnchanged(alice, ragId, before, 0, 0);
  });

  it('refuses an upload that does not fit with 409 quota_exceeded (needed, available) and stores nothing of it', async () => {
    const ragId = await newKb();
    const before = await kbOf(alice, ragId);
    const tooMany = await alice.upload(ragId, 'six.json', faqJson(1, SLOTS + 1));
    expect(expectProblem(tooMany, 409, 'quota_exceeded', server.baseUrl)).toMatchObject({ needed: SLOTS + 1, available: SLOTS });
    await expectUnchanged(alice, ragId, before, 0, 0);
  });

  it('counts only new records against the quota: duplicates fit into a full knowledge base', async () => {
    const ragId = await newKb();
    await alice.upload(ragId, 'three.json', faqJson(1, 3)); // items 1–3
    let before = await kbOf(alice, ragId);
    // Items 2–6: two duplicates and three new, but only two slots are free.
    const refused = await alice.upload(ragId, 'five.json', faqJson(2, 5));
    expect(expectProblem(refused, 409, 'quota_exceeded')).toMatchObject({ needed: 3, available: 2 });
    await expectUnchanged(alice, ragId, before, 1, 3);

    // Items 2–5: two duplicates and two new: fits exactly.
    const fits = await alice.upload<Report>(ragId, 'four.json', faqJson(2, 4));
    expect(fits.status).toBe(201);
    expect(fits.body).toMatchObject({ added: 2, duplicate: 2, quota: { limit: SLOTS, used: SLOTS, available: 0 } });

    // Full: an upload of duplicates only is still accepted and uses nothing.
    const dupes = await alice.upload<Report>(ragId, 'again.json', faqJson(1, 5));
    expect(dupes.status).toBe(201);
    expect(dupes.body).toMatchObject({ added: 0, duplicate: 5, quota: { used: SLOTS, available: 0 } });

    before = await kbOf(alice, ragId);
    const one = await alice.post(`${base(ragId)}/sources`, { name: 'one more', format: 'json', text: faqJson(99, 1) });
    expect(expectProblem(one, 409, 'quota_exceeded')).toMatchObject({ needed: 1, available: 0 });
    await expectUnchanged(alice, ragId, before, 3, SLOTS);
  });

  it('refuses a form without exactly one file in the field "file" with 400 bad_request', async () => {
    const ragId = await newKb();
    const noFile = new FormData();
    noFile.append('name', 'nothing');
    expectProblem(await alice.request('POST', `${base(ragId)}/sources`, noFile), 400, 'bad_request', server.baseUrl);

    const wrongField = new FormData();
    wrongField.append('document', new Blob(['Q: a?\nA: b.']), 'a.txt');
    expectProblem(await alice.request('POST', `${base(ragId)}/sources`, wrongField), 400, 'bad_request');

    const twoFiles = new FormData();
    twoFiles.append('file', new Blob(['Q: a?\nA: b.']), 'a.txt');
    twoFiles.append('file', new Blob(['Q: c?\nA: d.']), 'b.txt');
    expectProblem(await alice.request('POST', `${base(ragId)}/sources`, twoFiles), 400, 'bad_request');
    expect(await sourcesOf(alice, ragId)).toEqual([]);
  });

  it.each([
    ['no text', { name: 'x' }],
    ['no name', { text: 'hello' }],
    ['an empty name', { name: '', text: 'hello' }],
    ['an unknown format', { name: 'x', text: 'hello', format: 'pdf' }],
    ['an unknown field', { name: 'x', text: 'hello', tags: ['a'] }],
  ])('refuses a paste with %s with 422 validation_failed', async (_label, body) => {
    const ragId = await newKb();
    const problem = expectProblem(await alice.post(`${base(ragId)}/sources`, body), 422, 'validation_failed');
    expect(Array.isArray(problem.errors)).toBe(true);
    expect(await sourcesOf(alice, ragId)).toEqual([]);
  });

  it('answers 404 for a knowledge base or source that does not exist', async () => {
    const ragId = await newKb();
    const missing = 'kb_doesNotExist000000000';
    expectProblem(await alice.upload(missing, 'a.txt', 'Q: a?\nA: b.'), 404, 'not_found');
    expectProblem(await alice.post(`${base(missing)}/sources`, { name: 'a', text: 'b' }), 404, 'not_found');
    expectProblem(await alice.get(`${base(missing)}/sources`), 404, 'not_found');
    expectProblem(await alice.delete(`${base(ragId)}/sources/src_doesNotExist000000`), 404, 'not_found');
  });

  it('refuses bad paging parameters with 422', async () => {
    const ragId = await newKb();
    for (const query of ['limit=0', 'limit=101', 'limit=two', 'colour=red']) {
      expectProblem(await alice.get(`${base(ragId)}/sources?${query}`), 422, 'validation_failed');
    }
  });
});

describe('security', () => {
  it('another account cannot upload to, list or delete sources of your knowledge base (404, nothing changes)', async () => {
    const ragId = await newKb(alice);
    const mine = await alice.upload<Report>(ragId, 'mine.json', faqJson(1, 2));
    const sourceId = mine.body.source.sourceId;
    const before = await kbOf(alice, ragId);

    expectProblem(await bob.upload(ragId, 'theirs.json', faqJson(50, 1)), 404, 'not_found');
    expectProblem(await bob.post(`${base(ragId)}/sources`, { name: 'theirs', text: 'Q: x?\nA: y.' }), 404, 'not_found');
    expectProblem(await bob.get(`${base(ragId)}/sources`), 404, 'not_found');
    expectProblem(await bob.delete(`${base(ragId)}/sources/${sourceId}`), 404, 'not_found');
    // Through the attacker's own knowledge base, the source id is unknown too.
    const bobsKb = await newKb(bob);
    expectProblem(await bob.delete(`${base(bobsKb)}/sources/${sourceId}`), 404, 'not_found');

    await expectUnchanged(alice, ragId, before, 1, 2);
    expect(rowsForKnowledgeBase(server, 'sources', bobsKb)).toEqual([]);
  });

  it('a foreign knowledge base answers exactly like a missing one', async () => {
    const ragId = await newKb(alice);
    const foreign = await bob.get(`${base(ragId)}/sources`);
    const missing = await bob.get(`${base(`${ragId.slice(0, -3)}zzz`)}/sources`);
    const a = expectProblem(foreign, 404, 'not_found');
    const b = expectProblem(missing, 404, 'not_found');
    expect({ ...a, requestId: '' }).toEqual({ ...b, requestId: '' });
  });

  it('requires authentication (401) and, for cookie sessions, the CSRF token (403 csrf_failed)', async () => {
    const ragId = await newKb(alice);
    const anonymous = new Client(server.baseUrl);
    expectProblem(await anonymous.upload(ragId, 'a.txt', 'Q: a?\nA: b.'), 401, 'unauthorized');
    expectProblem(await anonymous.get(`${base(ragId)}/sources`), 401, 'unauthorized');

    const withoutToken = new Client(server.baseUrl);
    withoutToken.cookie = alice.cookie;
    expectProblem(await withoutToken.upload(ragId, 'a.txt', 'Q: a?\nA: b.'), 403, 'csrf_failed');
    expectProblem(await withoutToken.post(`${base(ragId)}/sources`, { name: 'a', text: 'Q: a?\nA: b.' }), 403, 'csrf_failed');
    expect(await sourcesOf(alice, ragId)).toEqual([]);
  });

  it('keeps uploaded names inert: control characters are removed', async () => {
    const ragId = await newKb();
    const response = await alice.post<Report>(`${base(ragId)}/sources`, { name: 'evil\u0000\u001b[31mname', text: 'Q: a?\nA: b.' });
    expect(response.status).toBe(201);
    expect(response.body.source.sourceName).toBe('evil[31mname');
  });
});
