/**
 * Shutdown does not wait on idle keep-alive connections (docs/decisions.md, "Streams"): a request
 * in flight when `stop()` begins is answered, and its connection, idle from then on, is closed at
 * once rather than held open for HTTP_KEEP_ALIVE_TIMEOUT_SECONDS (here an hour, far beyond the
 * test's own timeout, so a shutdown that waited for it fails the test).
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let stopped = false;
beforeAll(async () => {
  server = await startServer({ HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '3600' });
});
afterAll(async () => {
  if (!stopped) await server?.stop();
});

/** Resolves with everything read once `done(text)` is true; rejects if the socket ends first. */
function readUntil(socket: net.Socket, done: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (done(text)) {
        socket.off('data', onData);
        socket.off('end', onEnd);
        resolve(text);
      }
    };
    const onEnd = () => reject(new Error(`socket ended after: ${JSON.stringify(text)}`));
    socket.on('data', onData);
    socket.once('end', onEnd);
  });
}

describe('shutdown', () => {
  it('answers the request in flight, then closes its keep-alive connection instead of waiting for the idle timeout', { timeout: 60_000 }, async () => {
    const { port } = new URL(server.baseUrl);
    const socket = net.connect(Number(port), '127.0.0.1');
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    try {
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      const body = JSON.stringify({ text: '{"b":1,"a":2}', sortKeys: true });
      // Expect: 100-continue tells us when the server has read the headers: the request is then in flight.
      const interim = readUntil(socket, (text) => text.includes('\r\n\r\n'));
      socket.write(
        `POST /api/tools/json-format HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\nExpect: 100-continue\r\n\r\n`,
      );
      expect(await interim).toMatch(/^HTTP\/1\.1 100 Continue/);

      stopped = true;
      const stopping = server.stop();
      const response = readUntil(socket, (text) => /\r\n\r\n[\s\S]*"result"[\s\S]*\}$/.test(text));
      socket.write(body);
      const text = await response;
      expect(text).toMatch(/^HTTP\/1\.1 200 /);
      expect(text).toContain('"result"');
      // The server closes the now idle connection and the shutdown completes.
      await closed;
      await stopping;
    } finally {
      socket.destroy();
    }
  });
});
