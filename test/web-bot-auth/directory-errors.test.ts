/**
 * The key directory fetcher is no DNS or network oracle (issue 11 item 8).
 * A requester chooses the directory URL, so whatever keeps us from using it —
 * a name that does not resolve, a name resolving to a private or loopback
 * address (refused by the SSRF guard), a refused connection, a timeout, a
 * failed TLS handshake, credentials in the URL — the client gets the very
 * same 401 body and headers. The cause is in the server's log at debug level
 * only, without the URL's credentials or query.
 *
 * A real server on loopback with the production fetch policy. The resolver is
 * injected (no real DNS); the connector is the real one, pinned to 127.0.0.1,
 * so refused connections and timeouts are the kernel's and a real socket's.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIRECTORY_UNAVAILABLE, DirectoryFetchError } from '../../src/identity/web-bot-auth/errors.js';
import { type Connector, nodeConnector, type Resolver } from '../../src/net/guarded-fetch.js';
import { KeyDirectory } from '../../src/identity/web-bot-auth/key-directory.js';
import { expectProblem } from '../api/helpers.js';
import { freePort } from '../support/server.js';
import { newBot, signRequest, type TestBot } from './fixtures.js';
import { type LoggedServer, startLoggedServer } from './harness.js';

const names: Record<string, string> = {
  'private.bots.test': '10.0.0.7',
  'loopback.bots.test': '127.0.0.1',
  'metadata.bots.test': '169.254.169.254',
  // Public addresses: the guard lets them through, and the connector below dials loopback instead.
  'refused.bots.test': '93.184.216.34',
  'silent.bots.test': '93.184.216.34',
  'plain.bots.test': '93.184.216.34',
};

const resolver = vi.fn<Resolver>(async (hostname) => {
  const address = names[hostname];
  if (address) return [{ address, family: 4 }];
  // What dns.lookup throws for a name that does not exist.
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
});
const connector = vi.fn<Connector>((request) => nodeConnector({ ...request, addresses: [{ address: '127.0.0.1', family: 4 }] }));

let server: LoggedServer;
let bot: TestBot;
let silent: net.Server;
let plain: net.Server;
const sockets = new Set<net.Socket>();
let closedPort = 0;

async function listen(onConnection: (socket: net.Socket) => void): Promise<net.Server> {
  const s = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    onConnection(socket);
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return s;
}
const portOf = (s: net.Server) => (s.address() as net.AddressInfo).port;

beforeAll(async () => {
  bot = await newBot();
  // Accepts the connection and never says a word: the fetch runs into its time limit.
  silent = await listen(() => {});
  // Plain HTTP where TLS is expected: the handshake fails.
  plain = await listen((socket) => socket.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n'));
  closedPort = await freePort();
  server = await startLoggedServer({}, { logLevel: 'debug', botFetch: { policy: { allowLoopback: false }, resolver, connector, timeoutMs: 500 } });
});
afterAll(async () => {
  await server?.stop();
  for (const socket of sockets) socket.destroy();
  await Promise.all([silent, plain].map((s) => s && new Promise((resolve) => s.close(resolve))));
});

async function refusalFor(agentUrl: string) {
  const headers = await signRequest(bot, { url: `${server.baseUrl}/`, agentUrl });
  const response = await fetch(`${server.baseUrl}/`, { headers });
  const body = JSON.parse(await response.text()) as Record<string, unknown>;
  const problem = expectProblem({ status: response.status, headers: response.headers, body }, 401, 'invalid_signature', server.baseUrl);
  const { requestId: _requestId, ...rest } = problem;
  return {
    body: rest,
    headers: { 'content-type': response.headers.get('content-type'), 'www-authenticate': response.headers.get('www-authenticate') },
  };
}

describe('every reason a directory cannot be fetched gets the same answer', () => {
  const causes = () => [
    { agent: 'https://missing.bots.test', cause: /does not resolve \(ENOTFOUND\)/ },
    { agent: 'https://private.bots.test', cause: /resolves to a private address/ },
    { agent: 'https://loopback.bots.test', cause: /resolves to a loopback address/ },
    { agent: 'https://metadata.bots.test', cause: /resolves to a private address/ },
    { agent: `https://refused.bots.test:${closedPort}`, cause: /ECONNREFUSED/ },
    { agent: `https://silent.bots.test:${portOf(silent)}`, cause: /did not answer within 500 ms/ },
    { agent: `https://plain.bots.test:${portOf(plain)}`, cause: /could not be fetched \((?!ECONNREFUSED)/ },
    { agent: `https://127.0.0.1:${closedPort}`, cause: /loopback directory hosts/ },
    { agent: 'https://missing.bots.test/keys?token=t0ps3cret', cause: /does not resolve/, logged: 'https://missing.bots.test/keys?…' },
    { agent: 'https://alice:s3cret@private.bots.test/', cause: /must not carry credentials/, logged: 'https://private.bots.test/' },
  ];

  let answers: ({ agent: string } & Awaited<ReturnType<typeof refusalFor>>)[] = [];
  beforeAll(async () => {
    answers = [];
    for (const { agent } of causes()) answers.push({ agent, ...(await refusalFor(agent)) });
  });

  it('answers a non-resolving name, a private or loopback address, a refused connection and a timeout identically', () => {
    expect(answers).toHaveLength(causes().length);
    const first = answers[0];
    expect(first?.body).toMatchObject({ reason: 'directory_unavailable', detail: `The Web Bot Auth signature was refused: ${DIRECTORY_UNAVAILABLE}.` });
    for (const answer of answers) {
      expect(answer.body, answer.agent).toEqual(first?.body);
      expect(answer.headers, answer.agent).toEqual(first?.headers);
      expect(String(answer.body.detail)).not.toMatch(/resolve|ENOTFOUND|ECONNREFUSED|10\.0\.0\.7|169\.254|127\.0\.0\.1|private|loopback|within|timed? ?out/i);
    }
    // The guard refused the private and loopback ones before connecting: only three connections were tried.
    expect(connector.mock.calls.map(([request]) => request.url.hostname).sort()).toEqual(['plain.bots.test', 'refused.bots.test', 'silent.bots.test']);
    expect(resolver.mock.calls.map(([name]) => name)).not.toContain('127.0.0.1');
  });

  it('logs each cause at debug level only, without the URL’s credentials or query', () => {
    const refusals = server.logs().filter((l) => l.msg === 'bot key directory refused');
    expect(refusals).toHaveLength(causes().length);
    expect(refusals.every((l) => l.level === 20)).toBe(true);
    for (const { agent, cause, logged } of causes()) {
      const line = refusals.find((l) => l.agent === (logged ?? agent));
      expect(String(line?.error), agent).toMatch(cause);
    }
    expect(refusals.find((l) => /ECONNREFUSED/.test(String(l.error)))?.code).toBe('ECONNREFUSED');
    expect(refusals.find((l) => /ENOTFOUND/.test(String(l.error)))?.code).toBe('ENOTFOUND');
    // Lines at info and above name no cause.
    const visible = server.lines.filter((line) => (JSON.parse(line) as { level: number }).level >= 30).join('\n');
    expect(visible).not.toMatch(/does not resolve|ENOTFOUND|ECONNREFUSED|private address|loopback address|within 500 ms/);
    expect(visible).toContain('bot signature refused');
    // No secret from a directory URL reaches any log line.
    const all = server.lines.join('\n');
    expect(all).not.toContain('t0ps3cret');
    expect(all).not.toContain('s3cret');
  });
});

describe('KeyDirectory (unit)', () => {
  it('throws the same message for a fetch failure, a format failure and a budget refusal', async () => {
    const debug = vi.fn();
    const info = vi.fn();
    const failures = [new DirectoryFetchError('the directory host a.example does not resolve (ENOTFOUND)', 'ENOTFOUND'), new DirectoryFetchError('the directory answered 404')];
    const keys = new KeyDirectory({
      log: { debug, info, warn: vi.fn() },
      maxFetchesPerOriginPerMinute: 1,
      fetch: async () => {
        throw failures.shift() ?? new Error('no more');
      },
    });
    const message = (uri: string) =>
      keys.findKey({ uri, type: 'directory' }, 'k').then(
        () => 'found',
        (e: Error) => e.message,
      );
    const seen = [await message('https://a.example/d1'), await message('https://b.example/d1'), await message('https://b.example/d2')];
    expect(seen).toEqual([DIRECTORY_UNAVAILABLE, DIRECTORY_UNAVAILABLE, DIRECTORY_UNAVAILABLE]);
    expect(debug.mock.calls.map(([fields]) => (fields as { error: string }).error)).toEqual([
      'the directory host a.example does not resolve (ENOTFOUND)',
      'the directory answered 404',
    ]);
    expect(info.mock.calls.map(([fields, msg]) => [msg, (fields as { error: string }).error])).toEqual([
      ['bot key directory not fetched', "too many fetches of this agent's key directory; try again shortly"],
    ]);
  });
});
