/**
 * The domain whitelist and CORS of the query endpoints (product.md §5): exact
 * hosts, `*.` wildcards for subdomains, `localhost` only when listed,
 * lookalikes refused, Referer used when Origin is absent, no header at all =
 * a server-to-server call. Preflights are answered for whitelisted origins only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../api/helpers.js';
import { type Client, signedInClient, startServer, type TestServer } from '../support/server.js';
import { ask, askStream, createKey, faqKnowledgeBase, post } from './helpers.js';

let server: TestServer;
let alice: Client;
let shop: { ragId: string; apiKey: string };
let other: { ragId: string; apiKey: string };

const question = 'Where do orders ship from?';

beforeAll(async () => {
  server = await startServer({ MAX_KNOWLEDGE_BASES: '10', QUERY_RATE_PER_MINUTE: '0', QUERY_QUOTA_PER_DAY: '0' });
  alice = await signedInClient(server.baseUrl);
  shop = await faqKnowledgeBase(alice, ['shop.example.com', '*.example.org', 'localhost']);
  other = await faqKnowledgeBase(alice, ['other.example.net']);
});
afterAll(() => server?.stop());

describe('the Origin header against the whitelist', () => {
  it.each([
    ['https://shop.example.com', true],
    ['http://shop.example.com', true],
    ['https://shop.example.com:8443', true],
    ['https://SHOP.Example.COM', true],
    ['https://www.shop.example.com', false],
    ['https://example.com', false],
    ['https://a.example.org', true],
    ['https://a.b.example.org', true],
    ['https://example.org', false],
    ['https://shop.example.com.evil.test', false],
    ['https://evilshop.example.com', false],
    ['https://shop-example.com', false],
    ['https://aexample.org', false],
    ['https://example.org.evil.test', false],
    ['http://localhost:5173', true],
    ['http://localhost', true],
    ['http://app.localhost:5173', false],
    ['http://127.0.0.1:5173', false],
    ['null', false],
    ['file://', false],
    ['chrome-extension://abcdef', false],
  ])('Origin: %s → allowed %s', async (origin, allowed) => {
    const response = await ask(server.baseUrl, shop.apiKey, shop.ragId, question, { origin });
    if (allowed) {
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.grounded).toBe(true);
      // CORS compares byte for byte with the request's Origin: it is echoed as sent.
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    } else {
      const body = expectProblem(response, 403, 'origin_not_allowed');
      expect(String(body.detail)).toMatch(/not allowed/);
    }
    expect(response.headers.get('vary')).toMatch(/\bOrigin\b/i);
  });

  it('the same rules apply to search and to the stream', async () => {
    const okSearch = await post(server.baseUrl, '/api/v1/search', { ragId: shop.ragId, query: question }, shop.apiKey, { origin: 'https://a.example.org' });
    expect(okSearch.status).toBe(200);
    const badSearch = await post(server.baseUrl, '/api/v1/search', { ragId: shop.ragId, query: question }, shop.apiKey, {
      origin: 'https://shop.example.com.evil.test',
    });
    expectProblem(badSearch, 403, 'origin_not_allowed');

    const okStream = await askStream(server.baseUrl, shop.apiKey, shop.ragId, question, { origin: 'http://localhost:5173' });
    expect(okStream.status).toBe(200);
    expect(okStream.events.at(-1)?.event).toBe('done');
    const badStream = await askStream(server.baseUrl, shop.apiKey, shop.ragId, question, { origin: 'https://evilshop.example.com' });
    expect(badStream.status).toBe(403);
    expect(badStream.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((badStream.body as { code: string }).code).toBe('origin_not_allowed');
  });
});

describe('Referer, and no header at all', () => {
  it('uses Referer when there is no Origin', async () => {
    const ok = await ask(server.baseUrl, shop.apiKey, shop.ragId, question, { referer: 'https://shop.example.com/page?x=1' });
    expect(ok.status).toBe(200);
    const refused = await ask(server.baseUrl, shop.apiKey, shop.ragId, question, { referer: 'https://evil.test/shop.example.com' });
    expectProblem(refused, 403, 'origin_not_allowed');
  });

  it('Origin wins over Referer', async () => {
    const refused = await ask(server.baseUrl, shop.apiKey, shop.ragId, question, { origin: 'https://evil.test', referer: 'https://shop.example.com/page' });
    expectProblem(refused, 403, 'origin_not_allowed');
    const ok = await ask(server.baseUrl, shop.apiKey, shop.ragId, question, { origin: 'https://shop.example.com', referer: 'https://evil.test/' });
    expect(ok.status).toBe(200);
  });

  it('allows a call with neither header (server to server)', async () => {
    const ok = await ask(server.baseUrl, shop.apiKey, shop.ragId, question);
    expect(ok.status).toBe(200);
    expect(ok.body.grounded).toBe(true);
    expect(ok.headers.get('access-control-allow-origin')).toBeNull();
    expect(ok.headers.get('vary')).toMatch(/\bOrigin\b/i);
  });

  it('a key with an empty whitelist serves servers only', async () => {
    const { apiKey } = await createKey(alice, shop.ragId, []);
    expect((await ask(server.baseUrl, apiKey, shop.ragId, question)).status).toBe(200);
    expectProblem(await ask(server.baseUrl, apiKey, shop.ragId, question, { origin: 'https://shop.example.com' }), 403, 'origin_not_allowed');
    expectProblem(await ask(server.baseUrl, apiKey, shop.ragId, question, { origin: 'http://localhost:3000' }), 403, 'origin_not_allowed');
  });
});

describe('the key must belong to the knowledge base', () => {
  it('a key of another knowledge base → 401', async () => {
    expectProblem(await ask(server.baseUrl, other.apiKey, shop.ragId, question), 401, 'unauthorized');
  });

  it('the right key with another knowledge base’s ragId → 401', async () => {
    expectProblem(await ask(server.baseUrl, shop.apiKey, other.ragId, question), 401, 'unauthorized');
    expectProblem(await post(server.baseUrl, '/api/v1/search', { ragId: other.ragId, query: question }, shop.apiKey), 401, 'unauthorized');
  });

  it('an unknown ragId, a malformed key, a missing key → 401', async () => {
    expectProblem(await ask(server.baseUrl, shop.apiKey, 'kb_doesnotexist', question), 401, 'unauthorized');
    expectProblem(await ask(server.baseUrl, 'gw_live_not-a-key', shop.ragId, question), 401, 'unauthorized');
    expectProblem(await ask(server.baseUrl, `gw_live_${'A'.repeat(32)}`, shop.ragId, question), 401, 'unauthorized');
    expectProblem(await ask(server.baseUrl, undefined, shop.ragId, question), 401, 'unauthorized');
  });

  it('authentication is checked before the origin (a bad key from a bad origin is a 401)', async () => {
    expectProblem(await ask(server.baseUrl, other.apiKey, shop.ragId, question, { origin: 'https://evil.test' }), 401, 'unauthorized');
  });
});

describe('CORS', () => {
  const preflight = (path: string, origin: string) =>
    fetch(`${server.baseUrl}${path}`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-api-key' },
    });

  it.each(['/api/v1/query', '/api/v1/query/stream', '/api/v1/search'])('answers a preflight to %s for a whitelisted origin', async (path) => {
    for (const origin of ['https://shop.example.com', 'https://a.b.example.org', 'http://localhost:5173', 'https://other.example.net']) {
      const response = await preflight(path, origin);
      expect(response.status, origin).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      const allowHeaders = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
      expect(allowHeaders).toContain('x-api-key');
      expect(allowHeaders).toContain('content-type');
      expect((response.headers.get('access-control-allow-methods') ?? '').toUpperCase()).toContain('POST');
      expect(response.headers.get('vary')).toMatch(/\bOrigin\b/i);
    }
  });

  it('gives a non-whitelisted origin no CORS grant', async () => {
    for (const origin of ['https://evil.test', 'https://shop.example.com.evil.test', 'https://evilshop.example.com', 'https://example.org', 'null']) {
      const response = await preflight('/api/v1/query', origin);
      expect(response.status, origin).toBeGreaterThanOrEqual(400);
      expect(response.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(response.headers.get('access-control-allow-headers'), origin).toBeNull();
      expect(response.headers.get('vary')).toMatch(/\bOrigin\b/i);
    }
  });

  it('actual responses carry Vary: Origin, success or not', async () => {
    const responses = [
      await ask(server.baseUrl, shop.apiKey, shop.ragId, question, { origin: 'https://shop.example.com' }),
      await ask(server.baseUrl, shop.apiKey, shop.ragId, question),
      await ask(server.baseUrl, shop.apiKey, shop.ragId, question, { origin: 'https://evil.test' }),
      await ask(server.baseUrl, other.apiKey, shop.ragId, question, { origin: 'https://shop.example.com' }),
      await ask(server.baseUrl, shop.apiKey, shop.ragId, '   ', { origin: 'https://shop.example.com' }),
      await post(server.baseUrl, '/api/v1/search', { ragId: shop.ragId, query: question }, shop.apiKey, { origin: 'https://shop.example.com' }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 403, 401, 422, 200]);
    for (const response of responses) expect(response.headers.get('vary')).toMatch(/\bOrigin\b/i);
    const stream = await askStream(server.baseUrl, shop.apiKey, shop.ragId, question, { origin: 'https://shop.example.com' });
    expect(stream.headers.get('vary')).toMatch(/\bOrigin\b/i);
    expect(stream.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
  });

  it('a refused request from a browser can read why (CORS on the error)', async () => {
    const refused = await ask(server.baseUrl, shop.apiKey, shop.ragId, question, { origin: 'https://www.shop.example.com' });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://www.shop.example.com');
  });
});
