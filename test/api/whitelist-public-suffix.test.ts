/**
 * Key whitelists and the Public Suffix List, through the HTTP API (issue 11
 * item 8): `*.co.uk` or `*.github.io` is refused when a key is created or
 * changed, with a 422 problem naming the suffix; `*.shop.co.uk` is accepted
 * and works; and a public-suffix wildcard stored before the rule whitelists
 * nothing, for queries and for CORS preflights alike.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, type CreatedKey, createKb, createKey, faqKnowledgeBase } from '../query/helpers.js';
import { type Client, signedInClient, type TestServer } from '../support/server.js';
import { expectProblem, startTestServer } from './helpers.js';

let server: TestServer;
let alice: Client;

beforeAll(async () => {
  server = await startTestServer({ MAX_KNOWLEDGE_BASES: '10', QUERY_RATE_PER_MINUTE: '0', QUERY_QUOTA_PER_DAY: '0' });
  alice = await signedInClient(server.baseUrl);
});
afterAll(() => server?.stop());

const keysPath = (ragId: string) => `/api/v1/knowledge-bases/${ragId}/keys`;
const question = 'Where do orders ship from?';

describe('creating a key whose whitelist has a wildcard over a public suffix', () => {
  it.each([
    ['*.co.uk', 'co.uk'],
    ['*.github.io', 'github.io'],
  ])('%s → 422 validation_failed naming %s, no key made; PATCH refused too', async (entry, suffix) => {
    const ragId = await createKb(alice);
    const created = await alice.post(keysPath(ragId), { allowedDomains: ['shop.example.com', entry] });
    const body = expectProblem(created, 422, 'validation_failed', server.baseUrl);
    expect(body.detail).toBe(
      `"${entry}" is refused: ${suffix} is a public suffix (${suffix === 'co.uk' ? 'a registry under which anyone can register a domain' : 'a shared host under which anyone can have a site'}), so the wildcard would let every website under it use this key. List your own domain instead, such as *.your-site.${suffix}.`,
    );
    expect(body.errors).toEqual([{ location: '/body/allowedDomains', message: `wildcard over the public suffix "${suffix}"`, entry, publicSuffix: suffix }]);
    expect((await alice.get<{ items: unknown[] }>(keysPath(ragId))).body.items).toEqual([]);

    const key = await createKey(alice, ragId, ['shop.example.com']);
    expectProblem(await alice.patch(`${keysPath(ragId)}/${key.key.keyId}`, { allowedDomains: [entry] }), 422, 'validation_failed', server.baseUrl);
  });

  it('accepts *.shop.co.uk, *.alice.github.io and plain hosts, and the wildcard lets a subdomain query', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(alice, ['*.shop.co.uk', '*.alice.github.io', 'example.co.uk', 'localhost', '127.0.0.1']);
    const list = await alice.get<{ items: CreatedKey['key'][] }>(keysPath(ragId));
    expect(list.body.items[0]?.allowedDomains).toEqual(['*.shop.co.uk', '*.alice.github.io', 'example.co.uk', 'localhost', '127.0.0.1']);
    expect((await ask(server.baseUrl, apiKey, ragId, question, { origin: 'https://www.shop.co.uk' })).status).toBe(200);
    expect((await ask(server.baseUrl, apiKey, ragId, question, { origin: 'https://blog.alice.github.io' })).status).toBe(200);
    expectProblem(await ask(server.baseUrl, apiKey, ragId, question, { origin: 'https://bob.github.io' }), 403, 'origin_not_allowed');
  });
});

describe('a public-suffix wildcard stored before the rule', () => {
  it('whitelists nothing: queries get 403 and preflights get no CORS grant', async () => {
    const { ragId, apiKey, keyId } = await faqKnowledgeBase(alice, ['*.legacy-shop.co.uk']);
    // What an older version let through: rewrite the entry in the database before the key is ever used.
    // The server may hold the write lock a while on a busy machine (a usage batch): wait for it longer than the driver's 5 s.
    const db = new Database(path.join(server.config.dataDir, 'groundwork.db'), { fileMustExist: true, timeout: 60_000 });
    try {
      db.prepare('UPDATE api_keys SET allowed_domains = ? WHERE key_id = ?').run(JSON.stringify(['*.co.uk']), keyId);
      db.prepare('UPDATE api_key_domains SET pattern = ? WHERE key_id = ?').run('*.co.uk', keyId);
    } finally {
      db.close();
    }
    expect((await alice.get<{ items: CreatedKey['key'][] }>(keysPath(ragId))).body.items[0]?.allowedDomains).toEqual(['*.co.uk']);

    const refused = await ask(server.baseUrl, apiKey, ragId, question, { origin: 'https://evil.co.uk' });
    expectProblem(refused, 403, 'origin_not_allowed', server.baseUrl);
    const preflight = await fetch(`${server.baseUrl}/api/v1/query`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.co.uk', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-api-key' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    // The key still serves server-to-server calls.
    expect((await ask(server.baseUrl, apiKey, ragId, question)).status).toBe(200);
  });
});
