/**
 * Slow clients and connection hoarding, over real sockets: a client that
 * trickles its headers or its body is disconnected at the configured timeout,
 * and an address over IP_MAX_CONNECTIONS is refused while others are served.
 * Waits are derived from the configured timeouts with generous margins; every
 * wait ends on a socket event, not a sleep.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { startTestServer } from './helpers.js';

const headersTimeoutMs = 1000;
const requestTimeoutMs = 2000;
const maxConnections = 3;
/** Far above any timeout here, so a busy machine does not fail the test; only "never" does. */
const guardMs = 20_000;

let server: TestServer;
let port: number;
const sockets: net.Socket[] = [];

beforeAll(async () => {
  server = await startTestServer({
    HTTP_HEADERS_TIMEOUT_SECONDS: String(headersTimeoutMs / 1000),
    HTTP_REQUEST_TIMEOUT_SECONDS: String(requestTimeoutMs / 1000),
    IP_MAX_CONNECTIONS: String(maxConnections),
  });
  port = Number(new URL(server.baseUrl).port);
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await server?.stop();
});

function connect(localAddress = '127.0.0.1'): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress });
    sockets.push(socket);
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves when the socket closes, with what it received and how long that took; fails after `guardMs`. */
function closed(socket: net.Socket): Promise<{ received: string; elapsedMs: number }> {
  const started = performance.now();
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  socket.on('error', () => undefined); // a reset still ends in 'close'
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server did not close the connection within ${guardMs} ms; received: ${received.slice(0, 200)}`));
    }, guardMs);
    socket.once('close', () => {
      clearTimeout(guard);
      resolve({ received, elapsedMs: performance.now() - started });
    });
  });
}

/** Writes `chunk` every `everyMs` until the socket closes: a client that is slow, not idle. */
function trickle(socket: net.Socket, chunk: string, everyMs: number): void {
  const timer = setInterval(() => {
    if (socket.destroyed || !socket.writable) clearInterval(timer);
    else socket.write(chunk);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

/** One keep-alive request on a raw socket; resolves with the response head and body once the body is complete. */
function requestOn(socket: net.Socket, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(received)?.[1];
      if (end >= 0 && length !== undefined && received.length >= end + 4 + Number(length)) {
        socket.off('data', onData);
        resolve(received);
      }
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`closed before the response was complete: ${received.slice(0, 200)}`)));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  });
}

/**
 * A connection the server has admitted and answered once. A connection the client closed a
 * moment ago may still count on the server's side; until it has noticed, it refuses (429 and
 * close) and we connect again — each try ends on a socket event.
 */
async function admittedConnection(): Promise<net.Socket> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const socket = await connect();
    const answer = await requestOn(socket, '/healthz').catch(() => 'refused');
    if (answer.startsWith('HTTP/1.1 200 ')) return socket;
    socket.destroy();
  }
  throw new Error('the server never admitted a new connection');
}

function getFrom(localAddress: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, localAddress, agent: false }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    request.once('error', reject);
  });
}

describe('timeouts', () => {
  it('disconnects a client that trickles its request headers at the headers timeout', async () => {
    const socket = await connect();
    const done = closed(socket);
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    trickle(socket, 'X-Slow: a\r\n', 100);
    const { received, elapsedMs } = await done;
    expect(elapsedMs).toBeGreaterThanOrEqual(headersTimeoutMs * 0.9);
    // Node answers 408 when it can; a reset with nothing is also a disconnection.
    if (received) expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('disconnects a client that trickles its request body at the request timeout', async () => {
    const socket = await connect();
    const done = closed(socket);
    socket.write('POST /api/tools/json-format HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"text":"');
    trickle(socket, 'a', 100);
    const { received, elapsedMs } = await done;
    expect(elapsedMs).toBeGreaterThanOrEqual(requestTimeoutMs * 0.9);
    if (received) expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('does not cut a request that arrives in time', async () => {
    const socket = await connect();
    try {
      expect(await requestOn(socket, '/healthz')).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      socket.destroy();
    }
  });
});

describe('connections per address', () => {
  it('refuses a connection over IP_MAX_CONNECTIONS with 429 while the open ones and other addresses are served', async () => {
    // Each held connection has been answered once, so the server has certainly counted it.
    const held: net.Socket[] = [];
    try {
      for (let i = 0; i < maxConnections; i++) held.push(await admittedConnection());

      const extra = await connect();
      const refused = await closed(extra);
      expect(refused.received).toMatch(/^HTTP\/1\.1 429 /);
      expect(refused.received).toMatch(/\r\nretry-after: 1\r\n/i);
      const body = JSON.parse(refused.received.slice(refused.received.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
      expect(body).toMatchObject({ status: 429, code: 'rate_limited', limit: 'connections' });
      expect(body.type).toBe(`${server.baseUrl}/docs/errors/rate_limited`);

      // The connections already open keep working, and so does another address.
      expect(await requestOn(held[0] as net.Socket, '/healthz')).toMatch(/^HTTP\/1\.1 200 /);
      expect(await getFrom('127.0.0.2', '/healthz')).toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });

  it('admits the address again once its connections close', async () => {
    const held: net.Socket[] = [];
    for (let i = 0; i < maxConnections; i++) held.push(await admittedConnection());
    expect(await closed(await connect()).then((r) => r.received)).toMatch(/^HTTP\/1\.1 429 /);
    // The server learns of a close a moment after the client: ask until it has (each try ends on a socket event).
    await Promise.all(
      held.map((socket) => {
        const done = closed(socket);
        socket.destroy();
        return done;
      }),
    );
    let status = 0;
    for (let attempt = 0; attempt < 200 && status !== 200; attempt++) {
      status = await getFrom('127.0.0.1', '/healthz').catch(() => 0);
    }
    expect(status).toBe(200);
  });
});
