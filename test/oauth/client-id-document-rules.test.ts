/**
 * The rules of Client ID Metadata Documents below the HTTP layer: which URLs may name one, what a
 * document must say, how long one is kept (Cache-Control within bounds, a bounded cache), and the
 * SSRF guard under the production policy. Documents come from a real HTTP server on loopback,
 * which only the development policy may reach.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientIdUrlProblem, validateClientIdDocument } from '../../src/identity/oauth/client-id-document.js';
import { ClientIdDocuments, documentLifetimeMs } from '../../src/identity/oauth/client-id-documents.js';
import type { OAuthClient } from '../../src/identity/oauth/model.js';

const app = 'https://app.example/oauth/client.json';

describe('the client_id URL', () => {
  it.each([
    [app, undefined],
    ['https://app.example/client.json?v=2', undefined],
    ['http://app.example/client.json', 'must use https'],
    ['https://app.example', 'must have a path'],
    ['https://app.example/', 'must have a path'],
    ['https://app.example/a/./client.json', 'must not contain . or .. path segments'],
    ['https://app.example/a/%2e%2E/client.json', 'must not contain . or .. path segments'],
    ['https://app.example/client.json#top', 'must not contain a fragment'],
    ['https://me:pw@app.example/client.json', 'must not contain credentials'],
    ['https://APP.example/client.json', 'must be in normal form'],
    [`https://app.example/${'a'.repeat(1000)}`, 'must be at most 1000 characters'],
  ])('%s → %s', (url, problem) => {
    const found = clientIdUrlProblem(url, false);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });

  it('allows plain http only to loopback, and only under the development policy', () => {
    expect(clientIdUrlProblem('http://127.0.0.1:8080/client.json', true)).toBeUndefined();
    expect(clientIdUrlProblem('http://127.0.0.1:8080/client.json', false)).toBe('must use https');
    expect(clientIdUrlProblem('http://app.example/client.json', true)).toBe('must use https');
  });
});

describe('the document', () => {
  const base = { client_id: app, client_name: 'App', redirect_uris: ['https://app.example/callback'] };

  it('becomes a public client for the code flow, defaults filled, unknown fields ignored', () => {
    expect(validateClientIdDocument(app, { ...base, logo_uri: 'https://app.example/logo.png', jwks_uri: 'https://app.example/jwks', extra: 1 })).toEqual({
      redirect_uris: ['https://app.example/callback'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      client_name: 'App',
      logo_uri: 'https://app.example/logo.png',
    });
  });

  it.each([
    ['not an object', [base], /not a JSON object/],
    ['another client_id', { ...base, client_id: 'https://app.example/other.json' }, /client_id must equal/],
    ['no client_id', { ...base, client_id: undefined }, /client_id must equal/],
    ['a client secret', { ...base, client_secret: 's' }, /must not contain client_secret/],
    ['a secret-based method', { ...base, token_endpoint_auth_method: 'client_secret_post' }, /must be "none"/],
    ['private_key_jwt', { ...base, token_endpoint_auth_method: 'private_key_jwt' }, /must be "none"/],
    ['no redirect URIs', { ...base, redirect_uris: [] }, /redirect_uris must list/],
    ['client_credentials', { ...base, grant_types: ['client_credentials'] }, /grant_types may contain only/],
    ['a bad redirect URI', { ...base, redirect_uris: ['javascript:alert(1)'] }, /redirect URI/],
  ])('refuses %s as invalid_client', (_name, document, reason) => {
    expect(() => validateClientIdDocument(app, document)).toThrow(reason);
    try {
      validateClientIdDocument(app, document);
    } catch (error) {
      expect(error).toMatchObject({ error: 'invalid_client', status: 401 });
    }
  });
});

describe('how long a document is kept', () => {
  it.each([
    [undefined, 300_000],
    ['public, max-age=120', 120_000],
    ['max-age="60"', 60_000],
    ['max-age=31536000', 86_400_000],
    ['max-age=0', 0],
    ['no-store', 0],
    ['no-cache, max-age=600', 0],
    ['public', 300_000],
  ])('Cache-Control %s → %i ms', (header, ms) => {
    expect(documentLifetimeMs(header)).toBe(ms);
  });
});

describe('fetching and caching', () => {
  let documents: http.Server;
  let origin: string;
  const hits = new Map<string, number>();
  const saved: OAuthClient[] = [];
  const store = { saveDocumentClient: async (client: OAuthClient) => void saved.push(client) };

  beforeAll(async () => {
    documents = http.createServer((request, response) => {
      const path = request.url ?? '/';
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const body = JSON.stringify({ client_id: `${origin}${path}`, redirect_uris: ['http://127.0.0.1/callback'] });
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'max-age=60' }).end(body);
    });
    await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => documents?.close(resolve)));

  it('keeps a document for its max-age, then fetches it again, and shares one fetch between parallel requests', async () => {
    let now = 1_000_000;
    const cimd = new ClientIdDocuments(store, { policy: { allowLoopback: true }, now: () => now });
    const url = `${origin}/timed.json`;
    const clients = await Promise.all(Array.from({ length: 5 }, () => cimd.client(url)));
    expect(new Set(clients.map((c) => c.clientId))).toEqual(new Set([url]));
    expect(clients[0]).toMatchObject({ kind: 'cimd', secretHash: null, accountId: null });
    expect(hits.get('/timed.json')).toBe(1);
    now += 59_000;
    await cimd.client(url);
    expect(hits.get('/timed.json')).toBe(1);
    now += 2_000;
    await cimd.client(url);
    expect(hits.get('/timed.json')).toBe(2);
    expect(saved.filter((c) => c.clientId === url)).toHaveLength(2);
  });

  it('keeps at most maxEntries documents, dropping the least recently used', async () => {
    const cimd = new ClientIdDocuments(store, { policy: { allowLoopback: true }, maxEntries: 2 });
    const [a, b, c] = ['/lru-a.json', '/lru-b.json', '/lru-c.json'];
    await cimd.client(`${origin}${a}`);
    await cimd.client(`${origin}${b}`);
    await cimd.client(`${origin}${a}`); // a is now the most recent
    await cimd.client(`${origin}${c}`); // b goes
    await cimd.client(`${origin}${a}`);
    await cimd.client(`${origin}${b}`);
    expect([a, b, c].map((p) => hits.get(p as string))).toEqual([1, 2, 1]);
  });

  it('refuses loopback and private addresses under the production policy, before connecting', async () => {
    const cimd = new ClientIdDocuments(store, {
      policy: { allowLoopback: false },
      resolver: async () => [{ address: '10.0.0.7', family: 4 }],
    });
    await expect(cimd.client(`${origin}/timed.json`)).rejects.toMatchObject({ error: 'invalid_request', message: /must use https/ });
    await expect(cimd.client('https://127.0.0.1/client.json')).rejects.toMatchObject({ error: 'invalid_client', message: /loopback/ });
    await expect(cimd.client('https://internal.example/client.json')).rejects.toMatchObject({ error: 'invalid_client', message: /private address/ });
  });
});
