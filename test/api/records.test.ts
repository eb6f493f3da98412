/** `/api/v1/knowledge-bases/{ragId}/records[/{recordId}]`: paged listing, filtering by source, deleting one (product.md §3, §4). */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, signedInClient, type TestServer } from '../support/server.js';
import { expectProblem, rowsForKnowledgeBase, startTestServer } from './helpers.js';

interface RecordBody {
  recordId: string;
  sourceId: string;
  kind: string;
  title: string | null;
  text: string;
  fingerprint: string;
  createdAt: string;
}
interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
interface Kb {
  ragId: string;
  contentVersion: number;
  recordCount: number;
  quota: { limit: number; used: number; available: number };
}

let server: TestServer;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  server = await startTestServer({ MAX_RECORDS_PER_KB: '25', MAX_KNOWLEDGE_BASES: '20' });
  [alice, bob] = await Promise.all([signedInClient(server.baseUrl), signedInClient(server.baseUrl)]);
});
afterAll(() => server?.stop());

const records = (ragId: string) => `/api/v1/knowledge-bases/${ragId}/records`;

function faqJson(from: number, n: number): string {
  return JSON.stringify(Array.from({ length: n }, (_, k) => ({ question: `What is item ${from + k}?`, answer: `Item ${from + k} is a thing.` })));
}

/** A knowledge base with two sources: `first` with 4 records, `second` with 3. */
async function seeded(client: Client = alice): Promise<{ ragId: string; first: string; second: string }> {
  const created = await client.post<Kb>('/api/v1/knowledge-bases', { botName: 'Records' });
  expect(created.status).toBe(201);
  const ragId = created.body.ragId;
  const first = await client.upload<{ source: { sourceId: string } }>(ragId, 'first.json', faqJson(1, 4));
  const second = await client.upload<{ source: { sourceId: string } }>(ragId, 'second.json', faqJson(100, 3));
  expect([first.status, second.status]).toEqual([201, 201]);
  return { ragId, first: first.body.source.sourceId, second: second.body.source.sourceId };
}

async function allRecords(client: Client, ragId: string): Promise<RecordBody[]> {
  const response = await client.get<Page<RecordBody>>(`${records(ragId)}?limit=100`);
  expect(response.status).toBe(200);
  expect(response.body.nextCursor).toBeNull();
  return response.body.items;
}

const kbOf = async (client: Client, ragId: string) => (await client.get<Kb>(`/api/v1/knowledge-bases/${ragId}`)).body;

describe('happy path', () => {
  it('lists records oldest first with their fields; the fingerprint is SHA-256 of the normalised text', async () => {
    const { ragId, first, second } = await seeded();
    const items = await allRecords(alice, ragId);
    expect(items.length).toBe(7);
    expect(items.map((r) => r.title)).toEqual([
      'What is item 1?',
      'What is item 2?',
      'What is item 3?',
      'What is item 4?',
      'What is item 100?',
      'What is item 101?',
      'What is item 102?',
    ]);
    expect(items.map((r) => r.sourceId)).toEqual([first, first, first, first, second, second, second]);
    const record = items[0] as RecordBody;
    expect(record).toEqual({
      recordId: record.recordId,
      sourceId: first,
      kind: 'qa',
      title: 'What is item 1?',
      text: 'What is item 1?\nItem 1 is a thing.',
      fingerprint: createHash('sha256').update('What is item 1? Item 1 is a thing.').digest('hex'),
      createdAt: record.createdAt,
    });
    expect(record).not.toHaveProperty('ragId');
    for (const r of items) {
      const normalised = r.text.normalize('NFC').replace(/\s+/gu, ' ').trim();
      expect(r.fingerprint).toBe(createHash('sha256').update(normalised).digest('hex'));
    }
  });

  it('pages with limit and cursor: every record once, in order, nextCursor null at the end', async () => {
    const { ragId } = await seeded();
    const everything = (await allRecords(alice, ragId)).map((r) => r.recordId);
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const url: string = cursor ? `${records(ragId)}?limit=3&cursor=${encodeURIComponent(cursor)}` : `${records(ragId)}?limit=3`;
      const page: { status: number; body: Page<RecordBody> } = await alice.get<Page<RecordBody>>(url);
      expect(page.status).toBe(200);
      pages.push(page.body.items.map((r) => r.recordId));
      cursor = page.body.nextCursor;
      if (cursor !== null) expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    } while (cursor);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(everything);
  });

  it('a page that ends exactly at the last record has nextCursor null', async () => {
    const { ragId } = await seeded();
    const page = await alice.get<Page<RecordBody>>(`${records(ragId)}?limit=7`);
    expect(page.body.items.length).toBe(7);
    expect(page.body.nextCursor).toBeNull();
  });

  it('defaults to 50 records per page', async () => {
    const created = await alice.post<Kb>('/api/v1/knowledge-bases', { botName: 'Many' });
    await alice.upload(created.body.ragId, 'many.json', faqJson(1, 25));
    const page = await alice.get<Page<RecordBody>>(records(created.body.ragId));
    expect(page.body.items.length).toBe(25);
    expect(page.body.nextCursor).toBeNull();
  });

  it('filters by sourceId, with paging', async () => {
    const { ragId, first, second } = await seeded();
    const onlySecond = await alice.get<Page<RecordBody>>(`${records(ragId)}?sourceId=${second}`);
    expect(onlySecond.status).toBe(200);
    expect(onlySecond.body.items.map((r) => r.title)).toEqual(['What is item 100?', 'What is item 101?', 'What is item 102?']);
    const firstPage = await alice.get<Page<RecordBody>>(`${records(ragId)}?sourceId=${first}&limit=3`);
    expect(firstPage.body.items.every((r) => r.sourceId === first)).toBe(true);
    expect(firstPage.body.nextCursor).not.toBeNull();
    const rest = await alice.get<Page<RecordBody>>(`${records(ragId)}?sourceId=${first}&limit=3&cursor=${firstPage.body.nextCursor}`);
    expect(rest.body.items.map((r) => r.title)).toEqual(['What is item 4?']);
    expect(rest.body.nextCursor).toBeNull();
    const unknown = await alice.get<Page<RecordBody>>(`${records(ragId)}?sourceId=src_unknown000000`);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ items: [], nextCursor: null });
  });

  it('deletes one record (204): count, quota and content version change; the record is gone', async () => {
    const { ragId } = await seeded();
    const before = await kbOf(alice, ragId);
    const [victim, ...others] = await allRecords(alice, ragId);
    const removed = await alice.delete(`${records(ragId)}/${victim?.recordId}`);
    expect(removed.status).toBe(204);
    expect(removed.body).toBe('');
    const after = await kbOf(alice, ragId);
    expect(after.recordCount).toBe(before.recordCount - 1);
    expect(after.quota).toEqual({ limit: 25, used: 6, available: 19 });
    expect(after.contentVersion).not.toBe(before.contentVersion);
    expect((await allRecords(alice, ragId)).map((r) => r.recordId)).toEqual(others.map((r) => r.recordId));
    expect(rowsForKnowledgeBase(server, 'records', ragId).length).toBe(6);

    // Its text is no longer a duplicate: uploading the file again adds exactly that record back.
    const again = await alice.upload<{ added: number; duplicate: number }>(ragId, 'first.json', faqJson(1, 4));
    expect(again.body).toMatchObject({ added: 1, duplicate: 3 });
  });
});

describe('errors', () => {
  it.each(['limit=0', 'limit=101', 'limit=-1', 'limit=ten', 'page=2', `cursor=${'c'.repeat(65)}`, `sourceId=${'s'.repeat(65)}`])(
    'refuses the query %s with 422 validation_failed',
    async (query) => {
      const { ragId } = await seeded();
      const problem = expectProblem(await alice.get(`${records(ragId)}?${query}`), 422, 'validation_failed', server.baseUrl);
      expect((problem.errors as { location: string }[])[0]?.location).toMatch(/^\/querystring/);
    },
  );

  it('answers 404 for a missing knowledge base or record, and for a second delete', async () => {
    const { ragId } = await seeded();
    expectProblem(await alice.get(records('kb_doesNotExist00000000')), 404, 'not_found', server.baseUrl);
    expectProblem(await alice.delete(`${records('kb_doesNotExist00000000')}/rec_x`), 404, 'not_found');
    expectProblem(await alice.delete(`${records(ragId)}/rec_doesNotExist0000000`), 404, 'not_found');
    const [record] = await allRecords(alice, ragId);
    expect((await alice.delete(`${records(ragId)}/${record?.recordId}`)).status).toBe(204);
    expectProblem(await alice.delete(`${records(ragId)}/${record?.recordId}`), 404, 'not_found');
  });

  it('a record id of another of your knowledge bases is not found through this one', async () => {
    const one = await seeded();
    const two = await seeded();
    const [record] = await allRecords(alice, one.ragId);
    expectProblem(await alice.delete(`${records(two.ragId)}/${record?.recordId}`), 404, 'not_found');
    expect((await allRecords(alice, one.ragId)).length).toBe(7);
  });
});

describe('security', () => {
  it('another account cannot list your records (404) or delete one (404, record kept)', async () => {
    const { ragId } = await seeded(alice);
    const before = await kbOf(alice, ragId);
    const [record] = await allRecords(alice, ragId);
    expectProblem(await bob.get(records(ragId)), 404, 'not_found');
    expectProblem(await bob.delete(`${records(ragId)}/${record?.recordId}`), 404, 'not_found');

    // Through the attacker's own knowledge base: the id is unknown, and the filter finds nothing.
    const bobs = await bob.post<Kb>('/api/v1/knowledge-bases', { botName: 'Bob' });
    expectProblem(await bob.delete(`${records(bobs.body.ragId)}/${record?.recordId}`), 404, 'not_found');
    const filtered = await bob.get<Page<RecordBody>>(`${records(bobs.body.ragId)}?sourceId=${record?.sourceId}`);
    expect(filtered.body).toEqual({ items: [], nextCursor: null });

    const after = await kbOf(alice, ragId);
    expect(after).toEqual(before);
    expect((await allRecords(alice, ragId)).map((r) => r.recordId)).toContain(record?.recordId);
  });

  it('a foreign knowledge base’s records answer exactly like a missing knowledge base', async () => {
    const { ragId } = await seeded(alice);
    const a = expectProblem(await bob.get(records(ragId)), 404, 'not_found');
    const b = expectProblem(await bob.get(records(`${ragId.slice(0, -3)}zzz`)), 404, 'not_found');
    expect({ ...a, requestId: '' }).toEqual({ ...b, requestId: '' });
  });

  it('requires authentication (401) and the CSRF token for cookie deletes (403)', async () => {
    const { ragId } = await seeded(alice);
    const [record] = await allRecords(alice, ragId);
    const anonymous = new Client(server.baseUrl);
    expectProblem(await anonymous.get(records(ragId)), 401, 'unauthorized');
    expectProblem(await anonymous.delete(`${records(ragId)}/${record?.recordId}`), 401, 'unauthorized');
    const forged = new Client(server.baseUrl);
    forged.cookie = alice.cookie;
    expectProblem(await forged.delete(`${records(ragId)}/${record?.recordId}`), 403, 'csrf_failed');
    expect((await allRecords(alice, ragId)).length).toBe(7);
  });
});
