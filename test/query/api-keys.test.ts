/**
 * Knowledge-base query keys (product.md §4, §5): generated once, listed by
 * prefix only, whitelist normalised and validated, revocation immediate,
 * stored only as SHA-256, invisible to other accounts.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../api/helpers.js';
import { Client, signedInClient, startServer, type TestServer } from '../support/server.js';
import { ask, type CreatedKey, createKb, createKey, faqKnowledgeBase } from './helpers.js';

type KeyView = CreatedKey['key'];

let server: TestServer;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  server = await startServer({ MAX_KNOWLEDGE_BASES: '50', QUERY_RATE_PER_MINUTE: '0', QUERY_QUOTA_PER_DAY: '0' });
  [alice, bob] = await Promise.all([signedInClient(server.baseUrl), signedInClient(server.baseUrl)]);
});
afterAll(() => server?.stop());

const keysPath = (ragId: string) => `/api/v1/knowledge-bases/${ragId}/keys`;

describe('creating a key', () => {
  it('returns 201 with the full key once, gw_live_ + 32 characters, not cacheable', async () => {
    const ragId = await createKb(alice);
    const created = await alice.post<CreatedKey>(keysPath(ragId), { name: '  Shop widget  ', allowedDomains: ['shop.example.com'] });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const { apiKey, key } = created.body;
    expect(apiKey).toMatch(/^gw_live_[0-9A-Za-z]{32}$/);
    expect(key).toEqual({ keyId: key.keyId, name: 'Shop widget', prefix: key.prefix, allowedDomains: ['shop.example.com'], createdAt: key.createdAt, publishable: false });
    expect(apiKey.startsWith(key.prefix)).toBe(true);
    expect(key.prefix.length).toBeLessThan(apiKey.length - 16);
    expect(Number.isNaN(Date.parse(key.createdAt))).toBe(false);
    expect(JSON.stringify(key)).not.toContain(apiKey);

    // Two keys are different secrets.
    const second = await createKey(alice, ragId);
    expect(second.apiKey).not.toBe(apiKey);
    expect(second.key.keyId).not.toBe(key.keyId);
  });

  it('the key works for queries right away', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice);
    const answer = await ask(server.baseUrl, apiKey, ragId, 'Where do orders ship from?');
    expect(answer.status).toBe(200);
    expect(answer.body.grounded).toBe(true);
  });

  it('needs an account', async () => {
    const ragId = await createKb(alice);
    const anonymous = new Client(server.baseUrl);
    expectProblem(await anonymous.post(keysPath(ragId), { allowedDomains: [] }), 401, 'unauthorized');
    expectProblem(await anonymous.get(keysPath(ragId)), 401, 'unauthorized');
  });
});

describe('listing keys', () => {
  it('shows the prefix only; the full key never appears in list, knowledge-base or update responses', async () => {
    const ragId = await createKb(alice);
    const first = await createKey(alice, ragId, ['a.example.com'], 'first');
    const second = await createKey(alice, ragId, [], 'second');

    const list = await alice.get<{ items: KeyView[] }>(keysPath(ragId));
    expect(list.status).toBe(200);
    expect(list.body.items.map((k) => k.keyId).sort()).toEqual([first.key.keyId, second.key.keyId].sort());
    for (const item of list.body.items) {
      // Secret keys: no `apiKey` (only a publishable key is listed in full: docs/widget-keys.md).
      expect(Object.keys(item).sort()).toEqual(['allowedDomains', 'createdAt', 'keyId', 'name', 'prefix', 'publishable']);
      expect(item.prefix).toMatch(/^gw_live_/);
    }
    const listed = list.body.items.find((k) => k.keyId === first.key.keyId);
    expect(listed?.prefix).toBe(first.key.prefix);

    const patched = await alice.patch(`${keysPath(ragId)}/${first.key.keyId}`, { name: 'renamed' });
    expect(patched.status).toBe(200);
    const kb = await alice.get(`/api/v1/knowledge-bases/${ragId}`);
    const kbs = await alice.get('/api/v1/knowledge-bases');
    for (const response of [list, patched, kb, kbs]) {
      const text = JSON.stringify(response.body);
      for (const secret of [first.apiKey, second.apiKey]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(secret.slice(8));
      }
    }
  });
});

describe('the whitelist', () => {
  it('normalises entries as people type them', async () => {
    const ragId = await createKb(alice);
    const created = await createKey(alice, ragId, ['https://Shop.Example.com/', '*.Example.com', 'bücher.de', 'LOCALHOST', 'http://localhost:5173']);
    expect(created.key.allowedDomains).toEqual(['shop.example.com', '*.example.com', 'xn--bcher-kva.de', 'localhost']);

    const patched = await alice.patch<KeyView>(`${keysPath(ragId)}/${created.key.keyId}`, {
      allowedDomains: ['https://Shop.Example.com/', '*.example.com', 'Münchën.example', 'shop.example.com', 'www.example.net.'],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.allowedDomains).toEqual(['shop.example.com', '*.example.com', 'xn--mnchn-qsa9i.example', 'www.example.net']);
    const list = await alice.get<{ items: KeyView[] }>(keysPath(ragId));
    expect(list.body.items[0]?.allowedDomains).toEqual(patched.body.allowedDomains);
  });

  it('the punycode form of an IDN entry lets the browser origin through', async () => {
    const { ragId, apiKey, keyId } = await faqKnowledgeBase(alice, ['shop.example.com']);
    const patched = await alice.patch(`${keysPath(ragId)}/${keyId}`, { allowedDomains: ['bücher.de'] });
    expect(patched.status).toBe(200);
    // Browsers send the ASCII form of the host in Origin.
    const ok = await ask(server.baseUrl, apiKey, ragId, 'Where do orders ship from?', { origin: 'https://xn--bcher-kva.de' });
    expect(ok.status).toBe(200);
    // The whitelist change applies at once: the old entry no longer works.
    const refused = await ask(server.baseUrl, apiKey, ragId, 'Where do orders ship from?', { origin: 'https://shop.example.com' });
    expectProblem(refused, 403, 'origin_not_allowed');
  });

  it.each([
    ['*.com'],
    ['exa mple.com'],
    ['http://'],
    ['*'],
    ['*.localhost'],
    ['https://*.example.com'],
    ['example..com'],
    ['-bad.example.com'],
    ['ftp://example.com'],
    [''],
    ['user@example.com'],
    ['shop.example.com@evil.test'],
  ])('refuses %j with a 422 naming it, on create and on update', async (entry) => {
    const ragId = await createKb(alice);
    const created = await alice.post(keysPath(ragId), { allowedDomains: ['ok.example.com', entry] });
    const body = expectProblem(created, 422, 'validation_failed');
    if (entry !== '') expect(String(body.detail)).toContain(entry);

    const key = await createKey(alice, ragId, ['ok.example.com']);
    const patched = await alice.patch(`${keysPath(ragId)}/${key.key.keyId}`, { allowedDomains: [entry] });
    expectProblem(patched, 422, 'validation_failed');
    // Nothing changed, and the refused create made no key.
    const list = await alice.get<{ items: KeyView[] }>(keysPath(ragId));
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]?.allowedDomains).toEqual(['ok.example.com']);
  });

  it('refuses more than 50 entries', async () => {
    const ragId = await createKb(alice);
    const many = Array.from({ length: 51 }, (_, i) => `d${i}.example.com`);
    expectProblem(await alice.post(keysPath(ragId), { allowedDomains: many }), 422, 'validation_failed');
  });
});

describe('revoking a key', () => {
  it('fails the key at once with 401, and removes it from the list', async () => {
    const { ragId, apiKey, keyId } = await faqKnowledgeBase(alice);
    const other = await createKey(alice, ragId);
    // Warm any verification cache first.
    expect((await ask(server.baseUrl, apiKey, ragId, 'Where do orders ship from?')).status).toBe(200);

    const revoked = await alice.delete(`${keysPath(ragId)}/${keyId}`);
    expect(revoked.status).toBe(204);

    const refused = await ask(server.baseUrl, apiKey, ragId, 'Where do orders ship from?');
    expectProblem(refused, 401, 'unauthorized');
    const stream = await fetch(`${server.baseUrl}/api/v1/query/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ ragId, query: 'Where do orders ship from?' }),
    });
    expect(stream.status).toBe(401);
    await stream.body?.cancel();

    const list = await alice.get<{ items: KeyView[] }>(keysPath(ragId));
    expect(list.body.items.map((k) => k.keyId)).toEqual([other.key.keyId]);
    // The other key still works; revoking twice is a 404.
    expect((await ask(server.baseUrl, other.apiKey, ragId, 'Where do orders ship from?')).status).toBe(200);
    expectProblem(await alice.delete(`${keysPath(ragId)}/${keyId}`), 404, 'not_found');
  });

  it('deleting the knowledge base revokes its keys', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice);
    expect((await alice.delete(`/api/v1/knowledge-bases/${ragId}`)).status).toBe(204);
    expectProblem(await ask(server.baseUrl, apiKey, ragId, 'Where do orders ship from?'), 401, 'unauthorized');
  });
});

describe('storage', () => {
  it('keeps only the SHA-256 of the key', async () => {
    const ragId = await createKb(alice);
    const { apiKey, key } = await createKey(alice, ragId, ['shop.example.com']);
    const db = new Database(path.join(server.config.dataDir, 'groundwork.db'), { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare('SELECT * FROM api_keys WHERE key_id = ?').get(key.keyId) as Record<string, unknown> | undefined;
      expect(row).toBeDefined();
      expect(row?.key_hash).toBe(createHash('sha256').update(apiKey, 'utf8').digest('hex'));
      const secretPart = apiKey.slice('gw_live_'.length);
      for (const [column, value] of Object.entries(row ?? {})) {
        expect(String(value), `api_keys.${column}`).not.toContain(secretPart);
        expect(String(value), `api_keys.${column}`).not.toContain(secretPart.slice(8));
      }
      // Nowhere else in the database either.
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
      for (const { name } of tables) {
        const text = JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all());
        expect(text, `table ${name}`).not.toContain(secretPart);
      }
    } finally {
      db.close();
    }
  });
});

describe('another account', () => {
  it('gets 404 on every key endpoint of a knowledge base it does not own, and changes nothing', async () => {
    const { ragId, apiKey, keyId } = await faqKnowledgeBase(alice, ['shop.example.com']);
    expectProblem(await bob.post(keysPath(ragId), { allowedDomains: ['evil.test'] }), 404, 'not_found');
    expectProblem(await bob.get(keysPath(ragId)), 404, 'not_found');
    expectProblem(await bob.patch(`${keysPath(ragId)}/${keyId}`, { allowedDomains: ['evil.test'] }), 404, 'not_found');
    expectProblem(await bob.delete(`${keysPath(ragId)}/${keyId}`), 404, 'not_found');

    // Bob's own knowledge base cannot reach Alice's key either.
    const bobsRag = await createKb(bob);
    expectProblem(await bob.patch(`${keysPath(bobsRag)}/${keyId}`, { allowedDomains: ['evil.test'] }), 404, 'not_found');
    expectProblem(await bob.delete(`${keysPath(bobsRag)}/${keyId}`), 404, 'not_found');

    const list = await alice.get<{ items: KeyView[] }>(keysPath(ragId));
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]?.allowedDomains).toEqual(['shop.example.com']);
    expect((await ask(server.baseUrl, apiKey, ragId, 'Where do orders ship from?')).status).toBe(200);
  });

  it('an unknown key id is a 404 for the owner too', async () => {
    const ragId = await createKb(alice);
    expectProblem(await alice.patch(`${keysPath(ragId)}/key_doesnotexist`, { name: 'x' }), 404, 'not_found');
    expectProblem(await alice.delete(`${keysPath(ragId)}/key_doesnotexist`), 404, 'not_found');
  });
});
