/**
 * The key-directory fetch guard with the development policy OFF (and, for the
 * redirect, a policy that allows loopback). Resolver and connector are
 * injected, so nothing is ever sent to a non-loopback address: refused URLs
 * must be refused before the connector is called at all.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { classifyAddress } from '../../src/net/addresses.js';
import { MemoryReplayStore } from '../../src/adapters/replay/memory.js';
import type { SigningKeyStore } from '../../src/ports/storage.js';
import { BotAuthError, DIRECTORY_UNAVAILABLE } from '../../src/identity/web-bot-auth/errors.js';
import { type Connector, type FetchPolicy, guardedGet, type Resolver } from '../../src/net/guarded-fetch.js';
import { WebBotAuth } from '../../src/identity/web-bot-auth/index.js';
import { KeyDirectory } from '../../src/identity/web-bot-auth/key-directory.js';
import { newBot, rfcKeyid, rfcPublicJwk, signRequest } from './fixtures.js';

const production: FetchPolicy = { allowLoopback: false };
const development: FetchPolicy = { allowLoopback: true };
const accept = ['application/http-message-signatures-directory+json'];
const jwks = JSON.stringify({ keys: [rfcPublicJwk] });

function spies(addresses: string[] = ['93.184.216.34']) {
  const resolver = vi.fn<Resolver>(async () => addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) })));
  const connector = vi.fn<Connector>(async () => ({ status: 200, headers: [['Content-Type', accept[0] ?? '']], body: Buffer.from(jwks) }));
  return { resolver, connector };
}

async function refusal(url: string, policy: FetchPolicy, s: ReturnType<typeof spies>): Promise<string> {
  try {
    await guardedGet(url, { policy, accept, resolver: s.resolver, connector: s.connector });
  } catch (err) {
    return (err as Error).message;
  }
  return 'fetched';
}

describe('directory URLs refused outside development, before any connection', () => {
  it.each([
    ['https://127.0.0.1/.well-known/http-message-signatures-directory', /loopback/],
    ['https://localhost/.well-known/http-message-signatures-directory', /loopback/],
    ['https://[::1]/.well-known/http-message-signatures-directory', /loopback/],
    ['https://169.254.169.254/latest/meta-data/', /private/],
    ['https://10.0.0.1/.well-known/http-message-signatures-directory', /private/],
    ['https://[fd00:ec2::254]/', /private/],
    ['https://[::ffff:a9fe:a9fe]/', /private/],
    ['https://0.0.0.0/', /private/],
    ['http://example.com/.well-known/http-message-signatures-directory', /https/],
    ['ftp://example.com/keys', /https/],
    ['https://user:pw@example.com/keys', /credentials/],
  ])('%s', async (url, why) => {
    const s = spies();
    expect(await refusal(url, production, s)).toMatch(why);
    expect(s.connector).not.toHaveBeenCalled();
  });

  it.each([[['10.1.2.3']], [['93.184.216.34', '192.168.1.10']], [['100.100.100.200']], [['::ffff:169.254.169.254']], [['fe80::1']], [['127.0.0.1']]])(
    'a hostname resolving to %j',
    async (addresses) => {
      const s = spies(addresses);
      expect(await refusal('https://bots.example/.well-known/http-message-signatures-directory', production, s)).toMatch(
        /resolves to a (private|loopback) address/,
      );
      expect(s.resolver).toHaveBeenCalledWith('bots.example');
      expect(s.connector).not.toHaveBeenCalled();
    },
  );

  it('connects only to the vetted public addresses, with no credentials or compression', async () => {
    const s = spies(['93.184.216.34', '2606:2800:220:1::']);
    expect(await refusal('https://bots.example/keys', production, s)).toBe('fetched');
    const call = s.connector.mock.calls[0]?.[0];
    expect(call?.addresses.map((a) => a.address)).toEqual(['93.184.216.34', '2606:2800:220:1::']);
    expect(call?.url.href).toBe('https://bots.example/keys');
    expect(call?.headers).toMatchObject({ 'accept-encoding': 'identity' });
    expect(call?.headers).not.toHaveProperty('cookie');
  });

  it('refuses non-200 answers, other media types and oversized bodies from the connector', async () => {
    const answer = (status: number, type: string, size = 10) =>
      vi.fn<Connector>(async () => ({ status, headers: [['content-type', type]], body: Buffer.alloc(size, 32) }));
    const resolver = spies().resolver;
    const get = (connector: Connector) => guardedGet('https://bots.example/k', { policy: production, accept, resolver, connector, maxBytes: 100 });
    await expect(get(answer(404, accept[0] ?? ''))).rejects.toThrow(/answered 404/);
    await expect(get(answer(301, accept[0] ?? ''))).rejects.toThrow(/redirect/);
    await expect(get(answer(200, 'text/html'))).rejects.toThrow(/content type/);
    await expect(get(answer(200, accept[0] ?? '', 101))).rejects.toThrow(/larger than 100 bytes/);
  });

  it('classifies addresses', () => {
    expect(['8.8.8.8', '2001:4860:4860::8888', '::ffff:8.8.8.8'].map(classifyAddress)).toEqual(['public', 'public', 'public']);
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1'].map(classifyAddress)).toEqual(['loopback', 'loopback', 'loopback']);
    expect(
      [
        '10.0.0.1',
        '172.16.5.4',
        '192.168.0.1',
        '169.254.169.254',
        '100.64.0.1',
        '0.0.0.0',
        '::',
        'fc00::1',
        'fe80::1',
        '64:ff9b::a00:1',
        '2002:c0a8:101::',
        'nonsense',
      ].map(classifyAddress),
    ).toEqual(Array(12).fill('private'));
  });
});

describe('loopback servers (development policy)', () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });

  async function serve(handler: http.RequestListener): Promise<{ port: number; hits: () => number }> {
    let hits = 0;
    const server = http.createServer((req, res) => {
      hits++;
      handler(req, res);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { port: (server.address() as AddressInfo).port, hits: () => hits };
  }

  it('refuses a redirect without following it, even with loopback allowed', async () => {
    const server = await serve((_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end());
    await expect(guardedGet(`http://127.0.0.1:${server.port}/.well-known/http-message-signatures-directory`, { policy: development, accept })).rejects.toThrow(
      /redirect \(302\)/,
    );
    expect(server.hits()).toBe(1);
  });

  it('connects to the vetted address, not to whatever the name resolves to later', async () => {
    const server = await serve((_req, res) => res.writeHead(200, { 'content-type': accept[0] ?? '' }).end(jwks));
    const resolver = vi.fn<Resolver>(async () => [{ address: '127.0.0.1', family: 4 }]);
    // "bot.localhost" is not in any DNS here: the request reaches the server only through the pinned address.
    const response = await guardedGet(`http://bot.localhost:${server.port}/keys`, { policy: development, accept, resolver });
    expect(response.body.toString()).toBe(jwks);
    expect(resolver).toHaveBeenCalledTimes(1);
  });

  it('gives up on a slow or oversized directory', async () => {
    const slow = await serve(() => {});
    const started = Date.now();
    await expect(guardedGet(`http://127.0.0.1:${slow.port}/k`, { policy: development, accept, timeoutMs: 300 })).rejects.toThrow(/within 300 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
    const big = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': accept[0] ?? '' });
      res.end(Buffer.alloc(200_000, 32));
    });
    await expect(guardedGet(`http://127.0.0.1:${big.port}/k`, { policy: development, accept })).rejects.toThrow(/larger than 65536 bytes/);
  });
});

describe('key directory cache', () => {
  it('refuses the agent (directory_unavailable) and caches the refusal briefly', async () => {
    const s = spies(['10.0.0.7']);
    let now = 1_000_000;
    const debug = vi.fn();
    const directory = new KeyDirectory({
      now: () => now,
      log: { debug, info: vi.fn(), warn: vi.fn() },
      fetch: (url, types) => guardedGet(url, { policy: production, accept: types, resolver: s.resolver, connector: s.connector }),
    });
    const agent = { uri: 'https://bots.example', type: 'directory' as const };
    await expect(directory.findKey(agent, rfcKeyid)).rejects.toThrow(BotAuthError);
    // The client learns nothing of the cause (no DNS oracle); the debug log has it.
    await expect(directory.findKey(agent, rfcKeyid)).rejects.toThrow(DIRECTORY_UNAVAILABLE);
    expect(debug).toHaveBeenCalledTimes(1);
    expect(debug.mock.calls[0]?.[0]).toMatchObject({ url: 'https://bots.example/.well-known/http-message-signatures-directory', error: expect.stringMatching(/private address/) });
    expect(s.resolver).toHaveBeenCalledTimes(1);
    now += 61_000;
    await expect(directory.findKey(agent, rfcKeyid)).rejects.toThrow(BotAuthError);
    expect(s.resolver).toHaveBeenCalledTimes(2);
    expect(s.connector).not.toHaveBeenCalled();
  });

  it('caches a good directory, shares concurrent fetches, and refetches for an unknown keyid after a minute', async () => {
    const s = spies();
    let now = 1_000_000;
    const directory = new KeyDirectory({ now: () => now, fetch: (url, types) => guardedGet(url, { policy: production, accept: types, ...s }) });
    const agent = { uri: 'https://bots.example', type: 'directory' as const };
    const found = await Promise.all([directory.findKey(agent, rfcKeyid), directory.findKey(agent, rfcKeyid)]);
    expect(found).toEqual([rfcPublicJwk, rfcPublicJwk]);
    expect(s.connector).toHaveBeenCalledTimes(1);
    expect(s.connector.mock.calls[0]?.[0].url.href).toBe('https://bots.example/.well-known/http-message-signatures-directory');
    expect(await directory.findKey(agent, 'unknown')).toBeUndefined();
    expect(s.connector).toHaveBeenCalledTimes(1);
    now += 61_000;
    expect(await directory.findKey(agent, 'unknown')).toBeUndefined();
    expect(s.connector).toHaveBeenCalledTimes(2);
    now += 600_001;
    await directory.findKey(agent, rfcKeyid);
    expect(s.connector).toHaveBeenCalledTimes(3);
  });
});

describe('the service outside development mode', () => {
  it('refuses a signed request whose agent is on loopback, without connecting', async () => {
    const s = spies();
    const auth = new WebBotAuth({
      publicUrl: 'https://groundwork.example',
      devMode: false,
      signingKeys: {} as SigningKeyStore,
      replay: new MemoryReplayStore(),
      fetch: { resolver: s.resolver, connector: s.connector },
    });
    const bot = await newBot();
    for (const agentUrl of ['http://127.0.0.1:8080', 'https://127.0.0.1', 'https://169.254.169.254', 'http://bots.example']) {
      const headers = await signRequest(bot, { url: 'https://groundwork.example/', agentUrl });
      const verdict = auth.verify({ method: 'GET', targetUri: 'https://groundwork.example/', headers: Object.entries(headers) });
      await expect(verdict).rejects.toMatchObject({ reason: 'directory_unavailable' });
    }
    expect(s.resolver).not.toHaveBeenCalled();
    expect(s.connector).not.toHaveBeenCalled();
  });
});
