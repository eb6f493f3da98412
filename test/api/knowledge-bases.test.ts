/** `/api/v1/knowledge-bases[/{ragId}]`: create, list, read, update, delete (product.md §3, §4). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, Client, signedInClient, type TestServer } from '../support/server.js';
import { expectProblem, rowsForKnowledgeBase, startTestServer } from './helpers.js';

type KnowledgeBaseBody = {
  ragId: string;
  botName: string;
  description: string | null;
  greeting: string | null;
  fallbackMessage: string | null;
  theme: Record<string, string>;
  contentVersion: number;
  recordCount: number;
  quota: { limit: number; used: number; available: number };
  createdAt: string;
  updatedAt: string;
};

let server: TestServer;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  server = await startTestServer({ MAX_KNOWLEDGE_BASES: '2', MAX_RECORDS_PER_KB: '25' });
  [alice, bob] = await Promise.all([signedInClient(server.baseUrl), signedInClient(server.baseUrl)]);
});
afterAll(() => server?.stop());

async function create(client: Client, body: Record<string, unknown> = { botName: 'Helper' }): Promise<KnowledgeBaseBody> {
  const response = await client.post<KnowledgeBaseBody>('/api/v1/knowledge-bases', body);
  expect(response.status).toBe(201);
  return response.body;
}

async function removeAll(client: Client): Promise<void> {
  const list = await client.get<{ items: KnowledgeBaseBody[] }>('/api/v1/knowledge-bases');
  for (const kb of list.body.items) expect((await client.delete(`/api/v1/knowledge-bases/${kb.ragId}`)).status).toBe(204);
}

describe('happy path', () => {
  it('creates a knowledge base with a bot name and answers 201 with Location and the full view', async () => {
    await removeAll(alice);
    const response = await alice.post<KnowledgeBaseBody>('/api/v1/knowledge-bases', {
      botName: '  Support bot  ',
      description: 'Answers about shipping',
      greeting: 'Hi! Ask me anything.',
      fallbackMessage: '  Ask us at help@shop.example  ',
      theme: { accentColor: '#1a2b3c', colorScheme: 'dark', position: 'bottom-left' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const kb = response.body;
    expect(response.headers.get('location')).toBe(`/api/v1/knowledge-bases/${kb.ragId}`);
    expect(kb).toEqual({
      ragId: kb.ragId,
      botName: 'Support bot',
      description: 'Answers about shipping',
      greeting: 'Hi! Ask me anything.',
      fallbackMessage: 'Ask us at help@shop.example',
      synonyms: [],
      starterQuestions: [],
      theme: { accentColor: '#1a2b3c', colorScheme: 'dark', position: 'bottom-left' },
      contentVersion: kb.contentVersion,
      recordCount: 0,
      quota: { limit: 25, used: 0, available: 25 },
      createdAt: kb.createdAt,
      updatedAt: kb.updatedAt,
      widgetSeen: null, // no widget on a site yet (docs/first-run.md)
    });
    // Opaque, URL-safe, unguessable (about 128 random bits).
    expect(kb.ragId).toMatch(/^[A-Za-z0-9_-]{20,64}$/);
    expect(Number.isInteger(kb.contentVersion)).toBe(true);
    expect(new Date(kb.createdAt).toISOString()).toBe(kb.createdAt);
    expect(kb).not.toHaveProperty('ownerId');
  });

  it('gives every knowledge base its own unguessable id', async () => {
    await removeAll(alice);
    const [a, b] = [await create(alice), await create(alice)];
    expect(a.ragId).not.toBe(b.ragId);
    expect(a.ragId.slice(0, 10)).not.toBe(b.ragId.slice(0, 10));
  });

  it('lists only the caller’s knowledge bases, oldest first, with the limit', async () => {
    await removeAll(alice);
    const first = await create(alice, { botName: 'First' });
    const second = await create(alice, { botName: 'Second' });
    const list = await alice.get<{ items: KnowledgeBaseBody[]; limit: number }>('/api/v1/knowledge-bases');
    expect(list.status).toBe(200);
    expect(list.body.limit).toBe(2);
    expect(list.body.items.map((kb) => [kb.ragId, kb.botName])).toEqual([
      [first.ragId, 'First'],
      [second.ragId, 'Second'],
    ]);
  });

  it('reads one knowledge base by id', async () => {
    await removeAll(alice);
    const kb = await create(alice, { botName: 'Reader' });
    const read = await alice.get<KnowledgeBaseBody>(`/api/v1/knowledge-bases/${kb.ragId}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(kb);
  });

  it('renames and re-themes with PATCH, leaving other fields as they were', async () => {
    await removeAll(alice);
    const kb = await create(alice, { botName: 'Old name', greeting: 'Hello' });
    const renamed = await alice.patch<KnowledgeBaseBody>(`/api/v1/knowledge-bases/${kb.ragId}`, { botName: ' New name ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ ragId: kb.ragId, botName: 'New name', greeting: 'Hello', theme: {} });
    const themed = await alice.patch<KnowledgeBaseBody>(`/api/v1/knowledge-bases/${kb.ragId}`, { theme: { accentColor: '#abcdef' }, greeting: null });
    expect(themed.status).toBe(200);
    expect(themed.body).toMatchObject({ botName: 'New name', greeting: null, theme: { accentColor: '#abcdef' } });
    const read = await alice.get<KnowledgeBaseBody>(`/api/v1/knowledge-bases/${kb.ragId}`);
    expect(read.body).toEqual(themed.body);
    expect(Date.parse(read.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(kb.updatedAt));
  });

  it('sets, keeps, replaces and clears the fallback message; without one it is null', async () => {
    await removeAll(alice);
    const plain = await create(alice, { botName: 'Plain' });
    expect(plain.fallbackMessage).toBeNull();
    const path = `/api/v1/knowledge-bases/${plain.ragId}`;

    // Markup is stored and returned as the text it is; 500 characters after trimming is the upper bound.
    const hostile = '<script>alert(1)</script> Write to <b>help@shop.example</b> & we reply "soon".';
    const set = await alice.patch<KnowledgeBaseBody>(path, { fallbackMessage: hostile });
    expect(set.status).toBe(200);
    expect(set.body.fallbackMessage).toBe(hostile);
    expect((await alice.patch<KnowledgeBaseBody>(path, { botName: 'Renamed' })).body).toMatchObject({ botName: 'Renamed', fallbackMessage: hostile });
    const longest = `\n  ${'m'.repeat(500)}  `;
    expect((await alice.patch<KnowledgeBaseBody>(path, { fallbackMessage: longest })).body.fallbackMessage).toBe('m'.repeat(500));
    const multiline = 'We could not find that.\nCall us: +49 30 1234';
    expect((await alice.patch<KnowledgeBaseBody>(path, { fallbackMessage: multiline })).body.fallbackMessage).toBe(multiline);
    expect((await alice.get<KnowledgeBaseBody>(path)).body).toMatchObject({ botName: 'Renamed', fallbackMessage: multiline });

    for (const clear of [null, '', '   ']) {
      await alice.patch(path, { fallbackMessage: 'Ask us.' });
      const cleared = await alice.patch<KnowledgeBaseBody>(path, { fallbackMessage: clear });
      expect(cleared.status).toBe(200);
      expect(cleared.body.fallbackMessage).toBeNull();
    }
    expect((await alice.get<KnowledgeBaseBody>(path)).body.fallbackMessage).toBeNull();
    expect((await create(alice, { botName: 'Blank', fallbackMessage: ' ' })).fallbackMessage).toBeNull();
  });

  it('deletes a knowledge base (204, empty body); it is then gone from reads and the list', async () => {
    await removeAll(alice);
    const kb = await create(alice);
    const removed = await alice.delete(`/api/v1/knowledge-bases/${kb.ragId}`);
    expect(removed.status).toBe(204);
    expect(removed.body).toBe('');
    expectProblem(await alice.get(`/api/v1/knowledge-bases/${kb.ragId}`), 404, 'not_found', server.baseUrl);
    const list = await alice.get<{ items: KnowledgeBaseBody[] }>('/api/v1/knowledge-bases');
    expect(list.body.items).toEqual([]);
  });

  it('deleting a knowledge base removes its sources and records too', async () => {
    await removeAll(alice);
    const kb = await create(alice);
    const uploaded = await alice.post(`/api/v1/knowledge-bases/${kb.ragId}/sources`, { name: 'Hours', text: 'We open at nine.\n\nWe close at five.' });
    expect(uploaded.status).toBe(201);
    expect(rowsForKnowledgeBase(server, 'records', kb.ragId).length).toBeGreaterThan(0);
    expect((await alice.delete(`/api/v1/knowledge-bases/${kb.ragId}`)).status).toBe(204);
    expectProblem(await alice.get(`/api/v1/knowledge-bases/${kb.ragId}/records`), 404, 'not_found');
    expectProblem(await alice.get(`/api/v1/knowledge-bases/${kb.ragId}/sources`), 404, 'not_found');
    expect(rowsForKnowledgeBase(server, 'records', kb.ragId)).toEqual([]);
    expect(rowsForKnowledgeBase(server, 'sources', kb.ragId)).toEqual([]);
    expect(rowsForKnowledgeBase(server, 'knowledge_bases', kb.ragId)).toEqual([]);
  });
});

describe('errors', () => {
  it('refuses a third knowledge base with 409 kb_limit_reached; deleting one frees the slot', async () => {
    await removeAll(alice);
    const first = await create(alice, { botName: 'One' });
    await create(alice, { botName: 'Two' });
    const refused = await alice.post('/api/v1/knowledge-bases', { botName: 'Three' });
    const body = expectProblem(refused, 409, 'kb_limit_reached', server.baseUrl);
    expect(body).toMatchObject({ limit: 2, active: 2 });
    const list = await alice.get<{ items: KnowledgeBaseBody[] }>('/api/v1/knowledge-bases');
    expect(list.body.items.map((kb) => kb.botName)).toEqual(['One', 'Two']);

    expect((await alice.delete(`/api/v1/knowledge-bases/${first.ragId}`)).status).toBe(204);
    const third = await alice.post<KnowledgeBaseBody>('/api/v1/knowledge-bases', { botName: 'Three' });
    expect(third.status).toBe(201);
    expect(third.body.botName).toBe('Three');
  });

  it('the limit is per account: another person can still create', async () => {
    await removeAll(alice);
    await create(alice);
    await create(alice);
    const carol = await signedInClient(server.baseUrl);
    expect((await carol.post('/api/v1/knowledge-bases', { botName: 'Mine' })).status).toBe(201);
  });

  it.each([
    ['a missing botName', {}, '/body', 'botName'],
    ['an empty botName', { botName: '' }, '/body/botName', undefined],
    ['a blank botName', { botName: '   ' }, '/body/botName', undefined],
    ['an 81-character botName', { botName: 'x'.repeat(81) }, '/body/botName', undefined],
    ['an object as botName', { botName: { first: 'a' } }, '/body/botName', undefined],
    ['an unknown field', { botName: 'Ok', colour: 'red' }, '/body', undefined],
    ['a bad accent colour', { botName: 'Ok', theme: { accentColor: 'red' } }, '/body/theme/accentColor', undefined],
    ['an unknown colour scheme', { botName: 'Ok', theme: { colorScheme: 'neon' } }, '/body/theme/colorScheme', undefined],
    ['a 501-character description', { botName: 'Ok', description: 'd'.repeat(501) }, '/body/description', undefined],
    ['a control character in the greeting', { botName: 'Ok', greeting: 'hi\u0007' }, '/body/greeting', undefined],
    ['a 501-character fallbackMessage', { botName: 'Ok', fallbackMessage: 'f'.repeat(501) }, '/body/fallbackMessage', undefined],
    ['a far too long fallbackMessage', { botName: 'Ok', fallbackMessage: 'f'.repeat(5000) }, '/body/fallbackMessage', undefined],
    ['a number as fallbackMessage', { botName: 'Ok', fallbackMessage: 42 }, '/body/fallbackMessage', undefined],
    ['an object as fallbackMessage', { botName: 'Ok', fallbackMessage: { text: 'hi' } }, '/body/fallbackMessage', undefined],
    ['a control character in the fallbackMessage', { botName: 'Ok', fallbackMessage: 'ask\u0000us' }, '/body/fallbackMessage', undefined],
  ])('refuses %s with 422 validation_failed naming the field', async (_label, body, location, missing) => {
    await removeAll(alice);
    const response = await alice.post('/api/v1/knowledge-bases', body);
    const problem = expectProblem(response, 422, 'validation_failed', server.baseUrl);
    const errors = problem.errors as { location: string; message: string; missing?: string }[];
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]?.location.startsWith(location)).toBe(true);
    if (missing) expect(errors[0]?.missing).toBe(missing);
    expect((await alice.get<{ items: unknown[] }>('/api/v1/knowledge-bases')).body.items).toEqual([]);
  });

  it('accepts an 80-character botName (the upper bound)', async () => {
    await removeAll(alice);
    const kb = await create(alice, { botName: 'b'.repeat(80) });
    expect(kb.botName).toBe('b'.repeat(80));
  });

  // Known bug, reported: Fastify's Ajv coerces body types (coerceTypes: 'array' in src/http/app.ts),
  // so `{"botName": 5}` is stored as "5" instead of being refused. Turn into `it` once app.ts validates
  // bodies without coercion.
  it('refuses a number as botName with 422 (no type coercion of JSON bodies)', async () => {
    await removeAll(alice);
    const response = await alice.post('/api/v1/knowledge-bases', { botName: 5 });
    expectProblem(response, 422, 'validation_failed');
  });

  it('refuses an empty PATCH and a PATCH with a too-long botName with 422, changing nothing', async () => {
    await removeAll(alice);
    const kb = await create(alice, { botName: 'Stable' });
    expectProblem(await alice.patch(`/api/v1/knowledge-bases/${kb.ragId}`, {}), 422, 'validation_failed');
    expectProblem(await alice.patch(`/api/v1/knowledge-bases/${kb.ragId}`, { botName: 'y'.repeat(81) }), 422, 'validation_failed');
    expectProblem(await alice.patch(`/api/v1/knowledge-bases/${kb.ragId}`, { ragId: 'kb_other' }), 422, 'validation_failed');
    expect((await alice.get<KnowledgeBaseBody>(`/api/v1/knowledge-bases/${kb.ragId}`)).body).toEqual(kb);
  });

  it('refuses a PATCH with a bad fallbackMessage with 422 naming the field, changing nothing', async () => {
    await removeAll(alice);
    const kb = await create(alice, { botName: 'Stable', fallbackMessage: 'Ask us at help@shop.example' });
    const path = `/api/v1/knowledge-bases/${kb.ragId}`;
    for (const fallbackMessage of ['x'.repeat(501), ` ${'x'.repeat(250)} ${'y'.repeat(250)} `, 7, true, ['Ask us'], 'bell\u0007']) {
      const problem = expectProblem(await alice.patch(path, { fallbackMessage }), 422, 'validation_failed', server.baseUrl);
      expect((problem.errors as { location: string }[])[0]?.location, JSON.stringify(fallbackMessage)).toBe('/body/fallbackMessage');
    }
    expect((await alice.get<KnowledgeBaseBody>(path)).body).toEqual(kb);
  });

  it('answers 404 not_found for an id that does not exist, for every method', async () => {
    const missing = '/api/v1/knowledge-bases/kb_doesNotExist0000000000';
    expectProblem(await alice.get(missing), 404, 'not_found');
    expectProblem(await alice.patch(missing, { botName: 'x' }), 404, 'not_found');
    expectProblem(await alice.delete(missing), 404, 'not_found');
  });

  it('answers 400 bad_request for malformed JSON and 415 for a form-encoded body', async () => {
    expectProblem(await alice.post('/api/v1/knowledge-bases', '{"botName": "x"', { 'content-type': 'application/json' }), 400, 'bad_request');
    expectProblem(
      await alice.post('/api/v1/knowledge-bases', 'botName=x', { 'content-type': 'application/x-www-form-urlencoded' }),
      415,
      'unsupported_media_type',
    );
  });
});

describe('security', () => {
  it('requires authentication: 401 problem with WWW-Authenticate for every endpoint', async () => {
    const kb = await create(bob, { botName: 'Bob bot' });
    const anonymous = new Client(server.baseUrl);
    const calls = [
      anonymous.get('/api/v1/knowledge-bases'),
      anonymous.post('/api/v1/knowledge-bases', { botName: 'x' }),
      anonymous.get(`/api/v1/knowledge-bases/${kb.ragId}`),
      anonymous.patch(`/api/v1/knowledge-bases/${kb.ragId}`, { botName: 'x' }),
      anonymous.delete(`/api/v1/knowledge-bases/${kb.ragId}`),
    ];
    for (const response of await Promise.all(calls)) {
      expectProblem(response, 401, 'unauthorized');
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
    }
    expect((await bob.get<KnowledgeBaseBody>(`/api/v1/knowledge-bases/${kb.ragId}`)).body.botName).toBe('Bob bot');
    expect((await bob.delete(`/api/v1/knowledge-bases/${kb.ragId}`)).status).toBe(204);
  });

  it('another account cannot read, rename or delete your knowledge base: 404, exactly as for a missing id', async () => {
    await removeAll(alice);
    const kb = await create(alice, { botName: 'Private' });
    const missingId = `${kb.ragId.slice(0, -4)}zzzz`;

    type Pair = [ApiResponse, ApiResponse];
    const reads: Pair = [await bob.get(`/api/v1/knowledge-bases/${kb.ragId}`), await bob.get(`/api/v1/knowledge-bases/${missingId}`)];
    const patches: Pair = [
      await bob.patch(`/api/v1/knowledge-bases/${kb.ragId}`, { botName: 'Hijacked' }),
      await bob.patch(`/api/v1/knowledge-bases/${missingId}`, { botName: 'Hijacked' }),
    ];
    const deletes: Pair = [await bob.delete(`/api/v1/knowledge-bases/${kb.ragId}`), await bob.delete(`/api/v1/knowledge-bases/${missingId}`)];
    for (const [theirs, missing] of [reads, patches, deletes]) {
      const a = expectProblem(theirs, 404, 'not_found');
      const b = expectProblem(missing, 404, 'not_found');
      // Same answer as for an id that does not exist: nothing tells whether the id is real.
      expect({ ...a, requestId: '' }).toEqual({ ...b, requestId: '' });
    }
    const list = await bob.get<{ items: KnowledgeBaseBody[] }>('/api/v1/knowledge-bases');
    expect(list.body.items.map((k) => k.ragId)).not.toContain(kb.ragId);
    expect((await alice.get<KnowledgeBaseBody>(`/api/v1/knowledge-bases/${kb.ragId}`)).body).toEqual(kb);
  });

  it('another account’s knowledge bases do not count toward your limit', async () => {
    await removeAll(alice);
    await removeAll(bob);
    await create(bob);
    await create(bob);
    expect((await alice.post('/api/v1/knowledge-bases', { botName: 'Mine' })).status).toBe(201);
  });

  it('an invalid bearer token is refused even alongside a valid session cookie', async () => {
    const response = await alice.get('/api/v1/knowledge-bases', { authorization: 'Bearer not-a-real-token' });
    expectProblem(response, 401, 'unauthorized');
  });
});
