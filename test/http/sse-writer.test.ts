/**
 * The SSE writer: a stream that ended is not aborted when its response
 * closes (nothing is left to stop), and a client that leaves mid-stream aborts the work.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { openSseStream, type SseWriter } from '../../src/http/sse-writer.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A server whose one route opens a stream and hands it to `use`; resolves with its port. */
async function serve(use: (stream: SseWriter) => void): Promise<number> {
  app = Fastify();
  app.get('/s', async (_request, reply) => {
    use(openSseStream(reply));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

function signalSettled(stream: SseWriter): Promise<'aborted'> {
  return new Promise((resolve) => stream.signal.addEventListener('abort', () => resolve('aborted'), { once: true }));
}

describe('openSseStream', () => {
  it('a stream that finished is not aborted when its response closes', async () => {
    let stream!: SseWriter;
    await serve((s) => {
      stream = s;
      void s.write('event: token\ndata: {"text":"hi"}\n\n').then(() => s.finish('event: done\ndata: {}\n\n'));
    });
    // Injected, the response closes before it reports finished: the work had ended all the same.
    const response = await (app as FastifyInstance).inject({ method: 'GET', url: '/s' });
    expect(response.body).toBe('event: token\ndata: {"text":"hi"}\n\nevent: done\ndata: {}\n\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(stream.closed).toBe(true);
    expect(stream.signal.aborted).toBe(false);
  });

  it('a client that leaves mid-stream aborts the work', async () => {
    let stream!: SseWriter;
    const opened = new Promise<void>((resolve) => {
      void serve((s) => {
        stream = s;
        void s.write(': hello\n\n');
        resolve();
      }).then((port) => {
        const request = http.get({ host: '127.0.0.1', port, path: '/s', agent: false }, (res) => res.once('data', () => request.destroy()));
        request.on('error', () => {});
      });
    });
    await opened;
    await expect(signalSettled(stream)).resolves.toBe('aborted');
    expect(stream.closed).toBe(true);
  });
});
