/**
 * Web Bot Auth on a real server in development mode (PUBLIC_URL on loopback):
 * bots signing with http-message-sig, their directory served on loopback.
 * A verified bot is attributed, logged and limited by its own bucket; every
 * bad signature is a 401 `invalid_signature` problem.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../api/helpers.js';
import type { ApiResponse } from '../support/server.js';
import { newBot, signRequest, type TestBot } from './fixtures.js';
import { type BotDirectoryServer, type LoggedServer, serveBotDirectory, startLoggedServer } from './harness.js';

async function get(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  const response = await fetch(`${baseUrl}${path}`, { headers });
  const text = await response.text();
  const body = /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text;
  return { status: response.status, headers: response.headers, body };
}

let bot: TestBot;
let stranger: TestBot;
let directory: BotDirectoryServer;

beforeAll(async () => {
  [bot, stranger] = await Promise.all([newBot(), newBot()]);
  directory = await serveBotDirectory([bot]);
});
afterAll(() => directory?.close());

describe('a verified bot is limited by its own bucket and its IP (IP_RATE_PER_SECOND=3)', () => {
  let server: LoggedServer;
  beforeAll(async () => {
    server = await startLoggedServer({ IP_RATE_PER_SECOND: '3' });
  });
  afterAll(() => server?.stop());

  it('counts signed requests against the bot and its IP, and logs the bot', async () => {
    const signed = () => signRequest(bot, { url: `${server.baseUrl}/`, agentUrl: directory.url });
    const signedHeaders = await Promise.all([signed(), signed(), signed(), signed()]);
    const statuses: number[] = [];
    for (const headers of signedHeaders.slice(0, 3)) statuses.push((await get(server.baseUrl, '/', headers)).status);
    expect(statuses).toEqual([200, 200, 200]);

    // Signing does not add to the IP's allowance: the IP's bucket is full too.
    const unsignedFourth = await get(server.baseUrl, '/');
    expectProblem(unsignedFourth, 429, 'rate_limited', server.baseUrl);
    const signedFourth = await get(server.baseUrl, '/', signedHeaders[3]);
    expectProblem(signedFourth, 429, 'rate_limited', server.baseUrl);
    expect(signedFourth.headers.get('ratelimit-policy')).toBe('"ip";q=3;w=1, "bot";q=3;w=1');

    const verified = server.logs().filter((l) => l.msg === 'bot verified');
    expect(verified).toHaveLength(4);
    expect(verified[0]?.bot).toEqual({ agent: directory.url, keyid: bot.keyid });
    expect(verified[0]?.reqId).toBeTruthy();
    const completed = server.logs().filter((l) => l.msg === 'request completed' && l.reqId === verified[0]?.reqId);
    expect(completed).toEqual([expect.objectContaining({ bot: { agent: directory.url, keyid: bot.keyid } })]);
    expect(server.logs().some((l) => l.msg === 'bot key directory fetched, signature verified' && l.agent === directory.url)).toBe(true);
    // The directory was fetched once and cached; no signature bytes reach the log.
    expect(directory.hits()).toBe(1);
    const signatureBytes = /:([A-Za-z0-9+/=]+):/.exec(signedHeaders[0]?.signature ?? '')?.[1] ?? 'missing';
    expect(server.lines.join('\n')).not.toContain(signatureBytes);
    expect(server.logs().filter((l) => Number(l.level) >= 40)).toEqual([]);
  });
});

describe('a refused signature still counts against its IP (IP_RATE_PER_SECOND=2)', () => {
  let server: LoggedServer;
  beforeAll(async () => {
    server = await startLoggedServer({ IP_RATE_PER_SECOND: '2' });
  });
  afterAll(() => server?.stop());

  it('is refused after the IP limit has counted it: of three at once, two are 401 and one 429', async () => {
    const forged = await signRequest(bot, { url: 'http://evil.example/', agentUrl: directory.url });
    const responses = await Promise.all([1, 2, 3].map(() => get(server.baseUrl, '/', forged)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([401, 401, 429]);
    const limited = responses.find((r) => r.status === 429) as ApiResponse;
    expectProblem(limited, 429, 'rate_limited', server.baseUrl);
  });
});

describe('refused signatures (401 invalid_signature)', () => {
  let server: LoggedServer;
  beforeAll(async () => {
    server = await startLoggedServer();
  });
  afterAll(() => server?.stop());

  async function expectRefused(headers: Record<string, string>, reason: string, path = '/'): Promise<void> {
    const response = await get(server.baseUrl, path, headers);
    const body = expectProblem(response, 401, 'invalid_signature', server.baseUrl);
    expect(body.reason).toBe(reason);
  }

  it('accepts a good signature in either Signature-Agent form', async () => {
    expect((await get(server.baseUrl, '/', await signRequest(bot, { url: `${server.baseUrl}/`, agentUrl: directory.url }))).status).toBe(200);
    const legacy = await signRequest(bot, { url: `${server.baseUrl}/docs/errors`, agentUrl: directory.url, legacy: true, nonce: null });
    expect((await get(server.baseUrl, '/docs/errors', legacy)).status).toBe(200);
  });

  it('refuses a signature made for another authority', async () => {
    await expectRefused(await signRequest(bot, { url: 'http://evil.example/', agentUrl: directory.url }), 'bad_signature');
  });

  it('refuses a signature with a flipped byte', async () => {
    const headers = await signRequest(bot, { url: `${server.baseUrl}/`, agentUrl: directory.url });
    const bytes = Buffer.from(/:(.+):/.exec(headers.signature ?? '')?.[1] ?? '', 'base64');
    bytes[10] = (bytes[10] ?? 0) ^ 0x01;
    await expectRefused({ ...headers, signature: `sig1=:${bytes.toString('base64')}:` }, 'bad_signature');
  });

  it('refuses an expired signature, and one created in the future', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectRefused(await signRequest(bot, { url: `${server.baseUrl}/`, agentUrl: directory.url, created: now - 600, expires: now - 300 }), 'expired');
    await expectRefused(
      await signRequest(bot, { url: `${server.baseUrl}/`, agentUrl: directory.url, created: now + 120, expires: now + 400 }),
      'not_yet_valid',
    );
    await expectRefused(await signRequest(bot, { url: `${server.baseUrl}/`, agentUrl: directory.url, expires: now + 2 * 86_400 }), 'validity_too_long');
  });

  it('refuses a replayed nonce', async () => {
    const headers = await signRequest(bot, { url: `${server.baseUrl}/`, agentUrl: directory.url, nonce: randomBytes(64).toString('base64url') });
    expect((await get(server.baseUrl, '/', headers)).status).toBe(200);
    await expectRefused(headers, 'replayed');
  });

  it("refuses a key that is not in the agent's directory", async () => {
    await expectRefused(await signRequest(stranger, { url: `${server.baseUrl}/`, agentUrl: directory.url }), 'unknown_key');
  });

  it('refuses Signature-Agent without a signature, and signatures that are not Web Bot Auth', async () => {
    await expectRefused({ 'signature-agent': `agent1="${directory.url}"` }, 'missing_signature');
    await expectRefused(await signRequest(bot, { url: `${server.baseUrl}/`, agentUrl: directory.url, tag: 'other' }), 'wrong_tag');
    await expectRefused(await signRequest(bot, { url: `${server.baseUrl}/`, agentUrl: directory.url, components: ['@authority'] }), 'insufficient_coverage');
    await expectRefused({ 'signature-agent': `agent1="${directory.url}"`, 'signature-input': 'sig1=(((', signature: 'sig1=:AA==:' }, 'malformed');
    await expectRefused({ 'signature-agent': 'not a dictionary', 'signature-input': 'x', signature: 'y' }, 'wrong_tag');
  });

  it('refuses when the directory cannot be fetched, on any path', async () => {
    await expectRefused(await signRequest(bot, { url: `${server.baseUrl}/`, agentUrl: 'http://127.0.0.1:9' }), 'directory_unavailable');
    await expectRefused(
      await signRequest(bot, { url: `${server.baseUrl}/no-such-page`, agentUrl: 'https://10.0.0.1' }),
      'directory_unavailable',
      '/no-such-page',
    );
  });

  it('answers each refusal once: no route handler ran after it, nothing was logged as a warning', () => {
    expect(server.logs().filter((l) => Number(l.level) >= 40)).toEqual([]);
    expect(server.logs().filter((l) => l.msg === 'bot signature refused').length).toBeGreaterThanOrEqual(12);
  });
});
