/**
 * Web Bot Auth fairness (issue 11 item 8), on a real server with bots signing
 * through http-message-sig and loopback key directories:
 * - signing with many self-published keys from one address gives no more than
 *   the address's own allowance (the bot's bucket is in addition to its IP's);
 * - junk key directories spend their own origin's and sender's fetch budgets,
 *   not a global one, so the next real bot is still verified;
 * - a signature without a nonce must cover "@method" and the path to be used
 *   for a write, so it cannot be replayed on another path.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { component } from 'http-message-sig';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIRECTORY_UNAVAILABLE, DirectoryFetchError } from '../../src/identity/web-bot-auth/errors.js';
import { KeyDirectory } from '../../src/identity/web-bot-auth/key-directory.js';
import type { AgentEntry } from '../../src/identity/web-bot-auth/signature-agent.js';
import { expectProblem } from '../api/helpers.js';
import { freePort } from '../support/server.js';
import { newBot, signRequest, type TestBot } from './fixtures.js';
import { type BotDirectoryServer, type LoggedServer, serveBotDirectory, startLoggedServer } from './harness.js';

async function send(baseUrl: string, path: string, headers: Record<string, string> = {}, method = 'GET') {
  const response = await fetch(`${baseUrl}${path}`, { method, headers });
  const text = await response.text();
  const body = /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text;
  return { status: response.status, headers: response.headers, body };
}

let bots: TestBot[];
let directory: BotDirectoryServer;

beforeAll(async () => {
  bots = await Promise.all([newBot(), newBot(), newBot(), newBot(), newBot()]);
  directory = await serveBotDirectory(bots);
});
afterAll(() => directory?.close());

describe('signing with many keys from one address (IP_RATE_PER_SECOND=3)', () => {
  let server: LoggedServer;
  beforeAll(async () => {
    server = await startLoggedServer({ IP_RATE_PER_SECOND: '3' });
  });
  afterAll(() => server?.stop());

  it('gives no more than the address allows: each bot key is limited in addition to its IP', async () => {
    // 30 requests, 6 per key, all signed before the burst so the burst itself is short.
    const headers = await Promise.all(Array.from({ length: 30 }, (_, i) => signRequest(bots[i % 5] as TestBot, { url: `${server.baseUrl}/`, agentUrl: directory.url })));
    const start = performance.now();
    const statuses = await Promise.all(headers.map((h) => send(server.baseUrl, '/', h).then((r) => r.status)));
    const elapsed = performance.now() - start;
    const ok = statuses.filter((s) => s === 200).length;
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    // Keys as separate buckets would allow 5 × 3 in the first second; one IP allows 3 per second.
    expect(ok).toBeGreaterThan(0);
    expect(ok).toBeLessThanOrEqual(3 * (Math.ceil(elapsed / 1000) + 1));
  });
});

describe('key directory fetch budgets: per origin and per sender, not global', () => {
  let server: LoggedServer;
  let junk: http.Server;
  let junkUrl = '';
  let junkHits = 0;
  beforeAll(async () => {
    // TRUST_PROXY lets the test speak for several senders from loopback.
    server = await startLoggedServer({ TRUST_PROXY: '127.0.0.1' });
    junk = http.createServer((_req, res) => {
      junkHits++;
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => junk.listen(0, '127.0.0.1', resolve));
    junkUrl = `http://127.0.0.1:${(junk.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => junk?.close(resolve));
  });

  it('lets the next real bot in after 114 junk directory lookups', async () => {
    const closed = await Promise.all(Array.from({ length: 5 }, () => freePort()));
    const junkAgents = Array.from({ length: 114 }, (_, i) =>
      i % 2 === 0 ? `${junkUrl}/junk-${i}` : `http://127.0.0.1:${closed[i % closed.length]}/junk-${i}`,
    );
    for (const [i, agentUrl] of junkAgents.entries()) {
      const headers = await signRequest(bots[0] as TestBot, { url: `${server.baseUrl}/`, agentUrl });
      const response = await send(server.baseUrl, '/', { ...headers, 'x-forwarded-for': `203.0.113.${1 + (i % 3)}` });
      expectProblem(response, 401, 'invalid_signature', server.baseUrl);
    }
    // One junk origin was fetched at most its own budget, whatever the number of paths named on it.
    expect(junkHits).toBeLessThanOrEqual(10);

    const real = await signRequest(bots[1] as TestBot, { url: `${server.baseUrl}/`, agentUrl: directory.url });
    expect((await send(server.baseUrl, '/', { ...real, 'x-forwarded-for': '198.51.100.7' })).status).toBe(200);
  });
});

describe('key directory budgets (unit)', () => {
  const agent = (uri: string): AgentEntry => ({ uri, type: 'directory' }) as AgentEntry;

  it('caps fetches per origin and per sender; other origins and senders are unaffected', async () => {
    const fetched: string[] = [];
    const info = vi.fn();
    // Why the last lookup was not fetched, from the log (the client is told only DIRECTORY_UNAVAILABLE).
    const lastRefusal = () => (info.mock.calls.at(-1)?.[0] as { error?: string } | undefined)?.error;
    const keys = new KeyDirectory({
      log: { debug: vi.fn(), info, warn: vi.fn() },
      maxFetchesPerOriginPerMinute: 3,
      maxFetchesPerClientPerMinute: 5,
      fetch: async (url) => {
        fetched.push(url.href);
        throw new DirectoryFetchError('404');
      },
    });
    const attempt = (uri: string, client?: string) => keys.findKey(agent(uri), 'k', client).catch((e: Error) => e.message);
    for (let i = 0; i < 5; i++) await attempt(`https://junk.example/d${i}`);
    expect(fetched.filter((u) => u.startsWith('https://junk.example/'))).toHaveLength(3);
    expect(await attempt('https://junk.example/d9')).toBe(DIRECTORY_UNAVAILABLE);
    expect(lastRefusal()).toMatch(/too many fetches of this agent's key directory/);
    // Another origin still fetches.
    await attempt('https://other.example/d');
    expect(fetched).toContain('https://other.example/d');

    for (let i = 0; i < 8; i++) await attempt(`https://j${i}.example/`, '203.0.113.5');
    expect(fetched.filter((u) => /^https:\/\/j\d\.example/.test(u))).toHaveLength(5);
    expect(await attempt('https://j9.example/', '203.0.113.5')).toBe(DIRECTORY_UNAVAILABLE);
    expect(lastRefusal()).toMatch(/for this client/);
    await attempt('https://j9.example/', '198.51.100.7');
    expect(fetched).toContain('https://j9.example/.well-known/http-message-signatures-directory');
  });
});

describe('signatures without a nonce on writes', () => {
  let server: LoggedServer;
  beforeAll(async () => {
    server = await startLoggedServer();
  });
  afterAll(() => server?.stop());

  const bound = (legacy = false) => ['@method', '@path', '@authority', legacy ? 'signature-agent' : component('signature-agent', { key: 'agent1' })];

  it('refuses a nonce-less write signature that covers neither the method nor the path', async () => {
    const headers = await signRequest(bots[0] as TestBot, { url: `${server.baseUrl}/no-such-page`, method: 'POST', agentUrl: directory.url, nonce: null });
    const response = await send(server.baseUrl, '/no-such-page', headers, 'POST');
    expect(expectProblem(response, 401, 'invalid_signature', server.baseUrl).reason).toBe('insufficient_coverage');
    // Covering only the path is not enough either.
    const pathOnly = await signRequest(bots[0] as TestBot, {
      url: `${server.baseUrl}/no-such-page`,
      method: 'POST',
      agentUrl: directory.url,
      nonce: null,
      components: ['@path', '@authority', component('signature-agent', { key: 'agent1' })],
    });
    expect(expectProblem(await send(server.baseUrl, '/no-such-page', pathOnly, 'POST'), 401, 'invalid_signature', server.baseUrl).reason).toBe(
      'insufficient_coverage',
    );
  });

  it('accepts a nonce-less write bound to its method and path, and refuses it replayed on another path', async () => {
    const headers = await signRequest(bots[0] as TestBot, {
      url: `${server.baseUrl}/no-such-page`,
      method: 'POST',
      agentUrl: directory.url,
      nonce: null,
      components: bound(),
    });
    expect((await send(server.baseUrl, '/no-such-page', headers, 'POST')).status).toBe(404);
    const replayed = await send(server.baseUrl, '/another-page', headers, 'POST');
    expect(expectProblem(replayed, 401, 'invalid_signature', server.baseUrl).reason).toBe('bad_signature');
    const asDelete = await send(server.baseUrl, '/no-such-page', headers, 'DELETE');
    expect(expectProblem(asDelete, 401, 'invalid_signature', server.baseUrl).reason).toBe('bad_signature');
  });

  it('still accepts a write with a nonce, and a nonce-less read (the drafts leave @method/@path optional)', async () => {
    const withNonce = await signRequest(bots[0] as TestBot, { url: `${server.baseUrl}/no-such-page`, method: 'POST', agentUrl: directory.url });
    expect((await send(server.baseUrl, '/no-such-page', withNonce, 'POST')).status).toBe(404);
    const read = await signRequest(bots[0] as TestBot, { url: `${server.baseUrl}/`, agentUrl: directory.url, nonce: null });
    expect((await send(server.baseUrl, '/', read)).status).toBe(200);
  });
});
