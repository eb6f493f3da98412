/**
 * Query limits (product.md §1, §2, §5): per-knowledge-base sliding minute and
 * UTC-day quota, the whole-service per-IP limit, 429 problem documents with
 * `limit`, Retry-After and the RateLimit-Policy / RateLimit fields (also on
 * successes), X-Forwarded-For honoured only from TRUST_PROXY. Run against the
 * in-process limiter and, when REDIS_URL is set, against Redis (whose keys
 * outlive a run: every test uses a fresh knowledge base or fresh addresses).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../api/helpers.js';
import { describeIf, redis } from '../support/requirements.js';
import { type Client, signedInClient, startServer, type TestServer } from '../support/server.js';
import { type Answer, ask, askStream, faqKnowledgeBase, post } from './helpers.js';

const question = 'Where do orders ship from?';

/** A random private address, so Redis buckets are fresh on every run. */
function freshAddress(): string {
  const byte = () => Math.floor(Math.random() * 254) + 1;
  return `10.${byte()}.${byte()}.${byte()}`;
}

function remainingOf(headers: Headers, name: string): number | undefined {
  const match = new RegExp(`"${name}";r=(\\d+);t=(\\d+)`).exec(headers.get('ratelimit') ?? '');
  return match ? Number(match[1]) : undefined;
}

/** A plain GET (not a query), optionally from a forwarded address. */
async function plain(baseUrl: string, forwardedFor?: string): Promise<{ status: number; headers: Headers; body: Record<string, unknown> | string }> {
  // /api/v1 (the API index) answers 200 whether or not the web pages have been built.
  const response = await fetch(`${baseUrl}/api/v1`, { headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
  const text = await response.text();
  const body = /json/.test(response.headers.get('content-type') ?? '') ? (JSON.parse(text) as Record<string, unknown>) : text;
  return { status: response.status, headers: response.headers, body };
}

function limitSuite(backend: string, extraEnv: () => Record<string, string>): void {
  // Three servers per backend, started together: minute limit only, day quota only, IP limit behind a trusted proxy.
  let servers: Promise<[TestServer, TestServer, TestServer]> | undefined;
  const started = () => {
    servers ??= Promise.all([
      startServer({ ...extraEnv(), MAX_KNOWLEDGE_BASES: '20', QUERY_RATE_PER_MINUTE: '10', QUERY_QUOTA_PER_DAY: '0' }),
      startServer({ ...extraEnv(), MAX_KNOWLEDGE_BASES: '20', QUERY_RATE_PER_MINUTE: '0', QUERY_QUOTA_PER_DAY: '5' }),
      startServer({ ...extraEnv(), IP_RATE_PER_SECOND: '5', TRUST_PROXY: '127.0.0.1' }),
    ]);
    return servers;
  };
  afterAll(async () => {
    const all = await servers?.catch(() => undefined);
    await Promise.all((all ?? []).map((s) => s.stop()));
  });

  describe(`per minute (${backend})`, () => {
    let server: TestServer;
    let alice: Client;
    beforeAll(async () => {
      [server] = await started();
      alice = await signedInClient(server.baseUrl);
    });

    it('40 parallel queries → exactly 10 answered and 30 refused with limit "minute"', async () => {
      const { ragId, apiKey } = await faqKnowledgeBase(alice);
      const responses = await Promise.all(Array.from({ length: 40 }, () => ask(server.baseUrl, apiKey, ragId, question)));
      const ok = responses.filter((r) => r.status === 200);
      const refused = responses.filter((r) => r.status === 429);
      expect(ok).toHaveLength(10);
      expect(refused).toHaveLength(30);

      for (const response of ok) {
        expect(response.headers.get('ratelimit-policy')).toBe('"minute";q=10;w=60');
        expect(response.headers.get('ratelimit')).toMatch(/^"minute";r=\d+;t=\d+$/);
        expect(response.headers.get('retry-after')).toBeNull();
        expect((response.body as Answer).grounded).toBe(true);
      }
      // Each success took one unit: the remaining counts are 9, 8, … 0, each once.
      expect(ok.map((r) => remainingOf(r.headers, 'minute')).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

      for (const response of refused) {
        const body = expectProblem(response, 429, 'rate_limited');
        expect(body.limit).toBe('minute');
        expect(typeof body.retryAfterMs).toBe('number');
        expect(body.retryAfterMs as number).toBeGreaterThan(0);
        expect(body.retryAfterMs as number).toBeLessThanOrEqual(60_000);
        const retryAfter = response.headers.get('retry-after');
        expect(retryAfter).toMatch(/^\d+$/);
        expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
        expect(Number(retryAfter)).toBeLessThanOrEqual(60);
        expect(Number(retryAfter)).toBe(Math.max(1, Math.ceil((body.retryAfterMs as number) / 1000)));
        expect(response.headers.get('ratelimit-policy')).toBe('"minute";q=10;w=60');
        expect(remainingOf(response.headers, 'minute')).toBe(0);
      }
    });

    it('search and the stream count toward the same limit', async () => {
      const { ragId, apiKey } = await faqKnowledgeBase(alice);
      for (let i = 0; i < 4; i++) expect((await ask(server.baseUrl, apiKey, ragId, question)).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await post(server.baseUrl, '/api/v1/search', { ragId, query: question }, apiKey)).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await askStream(server.baseUrl, apiKey, ragId, question)).status).toBe(200);
      const search = await post(server.baseUrl, '/api/v1/search', { ragId, query: question }, apiKey);
      expect(expectProblem(search, 429, 'rate_limited').limit).toBe('minute');
      const stream = await askStream(server.baseUrl, apiKey, ragId, question);
      expect(stream.status).toBe(429);
      expect(stream.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(stream.headers.get('retry-after')).toMatch(/^\d+$/);
    });

    it('the limit is per knowledge base', async () => {
      const first = await faqKnowledgeBase(alice);
      const second = await faqKnowledgeBase(alice);
      await Promise.all(Array.from({ length: 12 }, () => ask(server.baseUrl, first.apiKey, first.ragId, question)));
      expect((await ask(server.baseUrl, first.apiKey, first.ragId, question)).status).toBe(429);
      const other = await ask(server.baseUrl, second.apiKey, second.ragId, question);
      expect(other.status).toBe(200);
      expect(remainingOf(other.headers, 'minute')).toBe(9);
    });

    it('refused requests (bad key, bad origin, invalid query) use no quota', async () => {
      const { ragId, apiKey } = await faqKnowledgeBase(alice, ['shop.example.com']);
      for (let i = 0; i < 12; i++) {
        expect((await ask(server.baseUrl, 'gw_live_bad', ragId, question)).status).toBe(401);
        expect((await ask(server.baseUrl, apiKey, ragId, question, { origin: 'https://evil.test' })).status).toBe(403);
        expect((await ask(server.baseUrl, apiKey, ragId, ' ')).status).toBe(422);
      }
      const response = await ask(server.baseUrl, apiKey, ragId, question);
      expect(response.status).toBe(200);
      expect(remainingOf(response.headers, 'minute')).toBe(9);
    });
  });

  describe(`per day (${backend})`, () => {
    let server: TestServer;
    let alice: Client;
    beforeAll(async () => {
      [, server] = await started();
      alice = await signedInClient(server.baseUrl);
    });

    it('5 queries succeed, then 429 with limit "day" until midnight UTC', async () => {
      const { ragId, apiKey } = await faqKnowledgeBase(alice);
      const remaining: (number | undefined)[] = [];
      for (let i = 0; i < 5; i++) {
        const response = await ask(server.baseUrl, apiKey, ragId, question);
        expect(response.status).toBe(200);
        expect(response.headers.get('ratelimit-policy')).toBe('"day";q=5;w=86400');
        remaining.push(remainingOf(response.headers, 'day'));
      }
      expect(remaining).toEqual([4, 3, 2, 1, 0]);
      for (let i = 0; i < 3; i++) {
        const refused = await ask(server.baseUrl, apiKey, ragId, question);
        const body = expectProblem(refused, 429, 'rate_limited');
        expect(body.limit).toBe('day');
        expect(String(body.detail)).toMatch(/UTC/);
        const retryAfter = Number(refused.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(86_400);
        // Retry-After points at the next 00:00 UTC (give or take the request's own duration).
        const midnight = Math.ceil((Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1) - Date.now()) / 1000);
        expect(Math.abs(retryAfter - midnight)).toBeLessThanOrEqual(60);
        expect(refused.headers.get('ratelimit-policy')).toBe('"day";q=5;w=86400');
      }
    });
  });

  describe(`per IP (${backend})`, () => {
    let proxied: TestServer;
    beforeAll(async () => {
      [, , proxied] = await started();
    });

    it('a burst from one client → 429 with limit "ip"; other clients have their own bucket', async () => {
      const client = freshAddress();
      const started = Date.now();
      const burst = await Promise.all(Array.from({ length: 40 }, () => plain(proxied.baseUrl, client)));
      const elapsed = Date.now() - started;
      const ok = burst.filter((r) => r.status === 200);
      const refused = burst.filter((r) => r.status === 429);
      expect(ok.length + refused.length).toBe(40);
      // A fresh bucket always admits its first 5; a burst inside one second admits exactly 5.
      expect(ok.length).toBeGreaterThanOrEqual(5);
      if (elapsed < 1000) expect(ok).toHaveLength(5);
      expect(refused.length).toBeGreaterThan(0);
      for (const response of refused) {
        const body = expectProblem(response as never, 429, 'rate_limited');
        expect(body.limit).toBe('ip');
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(response.headers.get('ratelimit-policy')).toBe('"ip";q=5;w=1');
        expect(remainingOf(response.headers, 'ip')).toBe(0);
      }
      // Successes report the limit too.
      for (const response of ok) expect(response.headers.get('ratelimit-policy')).toBe('"ip";q=5;w=1');

      // Health probes are exempt, even for a limited client.
      const health = await fetch(`${proxied.baseUrl}/healthz`, { headers: { 'x-forwarded-for': client } });
      expect(health.status).toBe(200);
      // Another address is not limited by this one.
      expect((await plain(proxied.baseUrl, freshAddress())).status).toBe(200);
    });

    it('every query counts once against its client, whatever ends it, and the client’s refusal comes first', async () => {
      // With Redis the query routes take this limit in their one admission round trip, not in the
      // onRequest hook: a request that ends before or inside that trip must still count, exactly once.
      // Set up from a new address per request, so the setup spends no bucket this test reads.
      const alice = await signedInClient(proxied.baseUrl, undefined, () => ({ 'x-forwarded-for': freshAddress() }));
      const { ragId, apiKey } = await faqKnowledgeBase(alice);
      const client = freshAddress();
      const from = { 'x-forwarded-for': client };
      const started = Date.now();
      const endings = [
        await ask(proxied.baseUrl, 'gw_live_bad', ragId, question, from),
        await post(proxied.baseUrl, '/api/v1/query', '{"ragId": "', apiKey, from),
        await ask(proxied.baseUrl, apiKey, ragId, ' ', from),
        await post(proxied.baseUrl, '/api/v1/search', { ragId, query: question }, apiKey, from),
        await ask(proxied.baseUrl, apiKey, ragId, question, from),
      ];
      const over = await ask(proxied.baseUrl, apiKey, ragId, question, from);
      const overBadKey = await ask(proxied.baseUrl, 'gw_live_bad', ragId, question, from);
      const overStream = await post(proxied.baseUrl, '/api/v1/query/stream', { ragId, query: question }, apiKey, from);
      const elapsed = Date.now() - started;
      expect(endings.map((r) => r.status)).toEqual([401, 400, 422, 200, 200]);
      // Every ending reports the client's bucket, one unit fewer each time (all inside one second).
      const remaining = endings.map((r) => remainingOf(r.headers, 'ip'));
      expect(remaining.every((r) => r !== undefined)).toBe(true);
      if (elapsed < 1000) {
        expect(remaining).toEqual([4, 3, 2, 1, 0]);
        for (const refused of [over, overBadKey, overStream]) {
          expect(refused.status).toBe(429);
          expect((refused.body as { limit?: string }).limit).toBe('ip');
          expect(refused.headers.get('retry-after')).not.toBeNull();
        }
      }
      // A success names both the client's limit and the knowledge base's.
      expect(endings[4]?.headers.get('ratelimit-policy')).toMatch(/"ip";q=5;w=1/);
      expect(endings[4]?.headers.get('ratelimit-policy')).toMatch(/"minute";/);
    });

    it('with TRUST_PROXY, every X-Forwarded-For address has its own bucket', async () => {
      const burst = await Promise.all(Array.from({ length: 40 }, () => plain(proxied.baseUrl, freshAddress())));
      expect(burst.map((r) => r.status)).toEqual(Array(40).fill(200));
    });

    it('the rightmost untrusted address in the chain is the client', async () => {
      const client = freshAddress();
      // Different spoofed left-hand entries do not give a client new buckets.
      const burst = await Promise.all(Array.from({ length: 40 }, () => plain(proxied.baseUrl, `${freshAddress()}, ${client}`)));
      expect(burst.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    });
  });
}

describe('in-process limiter', () => {
  limitSuite('memory', () => ({}));

  describe('per IP without a trusted proxy', () => {
    let direct: TestServer;
    beforeAll(async () => {
      direct = await startServer({ IP_RATE_PER_SECOND: '5' });
    });
    afterAll(() => direct?.stop());

    it('X-Forwarded-For is ignored: all addresses share the connection’s bucket', async () => {
      const burst = await Promise.all(Array.from({ length: 40 }, () => plain(direct.baseUrl, freshAddress())));
      const refused = burst.filter((r) => r.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      for (const response of refused) expect((response.body as Record<string, unknown>).limit).toBe('ip');
    });
  });
});

describeIf(redis, 'Redis limiter', () => {
  limitSuite('redis', () => ({ REDIS_URL: process.env.REDIS_URL as string }));
});
