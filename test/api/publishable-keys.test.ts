/**
 * Publishable (widget) keys through the HTTP API (issue 13, docs/widget-keys.md): a key made with
 * `publishable: true` is listed again with its full key, which works for queries; a secret key
 * never is; the list is not cached; the full key is not in the database in plain text; and a
 * revoked publishable key is not listed, its row (with the sealed copy) gone, and it answers 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, faqKnowledgeBase } from '../query/helpers.js';
import { type Client, signedInClient, type TestServer } from '../support/server.js';
import { databaseDump, expectProblem, startTestServer } from './helpers.js';

interface Key {
  keyId: string;
  name: string | null;
  prefix: string;
  allowedDomains: string[];
  createdAt: string;
  publishable: boolean;
  apiKey?: string;
}

let server: TestServer;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  server = await startTestServer({ MAX_KNOWLEDGE_BASES: '10', QUERY_RATE_PER_MINUTE: '0', QUERY_QUOTA_PER_DAY: '0' });
  alice = await signedInClient(server.baseUrl);
  bob = await signedInClient(server.baseUrl);
});
afterAll(() => server?.stop());

const keysPath = (ragId: string) => `/api/v1/knowledge-bases/${ragId}/keys`;
const question = 'Where do orders ship from?';

describe('publishable keys', () => {
  it('are listed again with the full key, which answers; secret keys are listed by prefix only', async () => {
    const { ragId, apiKey: secretKey, keyId: secretId } = await faqKnowledgeBase(alice, ['shop.example']);
    const created = await alice.post<{ key: Key; apiKey: string }>(keysPath(ragId), { name: 'widget', allowedDomains: ['shop.example'], publishable: true });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatchObject({ name: 'widget', publishable: true, allowedDomains: ['shop.example'] });
    expect(created.body.apiKey).toMatch(/^gw_live_[A-Za-z0-9]{32}$/);

    const list = await alice.get<{ items: Key[] }>(keysPath(ragId));
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('no-store');
    const secret = list.body.items.find((k) => k.keyId === secretId);
    const publishable = list.body.items.find((k) => k.keyId === created.body.key.keyId);
    expect(secret).toMatchObject({ publishable: false });
    expect(secret && 'apiKey' in secret).toBe(false);
    expect(JSON.stringify(list.body)).not.toContain(secretKey);
    expect(publishable).toEqual({ ...created.body.key, apiKey: created.body.apiKey });

    // The listed key is the real one.
    expect((await ask(server.baseUrl, publishable?.apiKey, ragId, question, { origin: 'https://shop.example' })).status).toBe(200);
    // Another account sees nothing.
    expectProblem(await bob.get(keysPath(ragId)), 404, 'not_found');
    // At rest it is sealed: neither key is in the database in plain text.
    const dump = JSON.stringify(databaseDump(server));
    expect(dump).not.toContain(created.body.apiKey);
    expect(dump).not.toContain(secretKey);
  });

  it('defaults to a secret key, and refuses a non-boolean publishable', async () => {
    const { ragId } = await faqKnowledgeBase(alice, ['shop.example']);
    const plain = await alice.post<{ key: Key; apiKey: string }>(keysPath(ragId), { allowedDomains: ['shop.example'], publishable: false });
    expect(plain.body.key.publishable).toBe(false);
    const items = (await alice.get<{ items: Key[] }>(keysPath(ragId))).body.items;
    expect(items.every((k) => !k.publishable && k.apiKey === undefined)).toBe(true);
    expectProblem(await alice.post(keysPath(ragId), { allowedDomains: ['shop.example'], publishable: 'yes' }), 422, 'validation_failed');
  });

  it('once revoked: not listed, its sealed copy deleted, and the key answers 401', async () => {
    const { ragId } = await faqKnowledgeBase(alice, ['shop.example']);
    const created = await alice.post<{ key: Key; apiKey: string }>(keysPath(ragId), { allowedDomains: ['shop.example'], publishable: true });
    const before = databaseDump(server).api_keys as { key_id: string; sealed_key: string | null }[];
    expect(before.find((row) => row.key_id === created.body.key.keyId)?.sealed_key).toMatch(/^v1:/);

    expect((await alice.delete(`${keysPath(ragId)}/${created.body.key.keyId}`)).status).toBe(204);
    const items = (await alice.get<{ items: Key[] }>(keysPath(ragId))).body.items;
    expect(items.map((k) => k.keyId)).not.toContain(created.body.key.keyId);
    expect(JSON.stringify(items)).not.toContain(created.body.apiKey);
    const after = databaseDump(server).api_keys as { key_id: string }[];
    expect(after.find((row) => row.key_id === created.body.key.keyId)).toBeUndefined();
    expectProblem(await ask(server.baseUrl, created.body.apiKey, ragId, question, { origin: 'https://shop.example' }), 401, 'unauthorized');
  });
});
