/**
 * The SSE writer: a stream that ended is not aborted when its response
 * closes (nothing is left to stop), a client that leaves mid-stream aborts the work, the frames of
 * one turn leave in one write, in order with the ones written at once and at the end, and a client
 * that does not read holds the writer back.
 */
import http from 'node:http';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

  it('says a client left without its signal having been asked for; a signal asked for afterwards is already aborted', async () => {
    let stream!: SseWriter;
    const opened = new Promise<void>((resolve) => {
      void serve((s) => {
        stream = s;
        s.writeNow(': hello\n\n');
        resolve();
      }).then((port) => {
        const request = http.get({ host: '127.0.0.1', port, path: '/s', agent: false }, (res) => res.once('data', () => request.destroy()));
        request.on('error', () => {});
      });
    });
    await opened;
    expect(stream.aborted).toBe(false);
    await vi.waitFor(() => expect(stream.aborted).toBe(true), { timeout: 10_000 });
    expect(stream.closed).toBe(true);
    expect(stream.signal.aborted).toBe(true);
  });

  it('abort() stops the work whether or not the signal was made before', async () => {
    let early!: SseWriter;
    let late!: SseWriter;
    let signalled = false;
    await serve((s) => {
      if (!early) {
        early = s;
        s.signal.addEventListener('abort', () => (signalled = true), { once: true });
      } else late = s;
      s.abort();
      s.finish();
    });
    await (app as FastifyInstance).inject({ method: 'GET', url: '/s' });
    await (app as FastifyInstance).inject({ method: 'GET', url: '/s' });
    expect(signalled).toBe(true);
    expect(early.aborted).toBe(true);
    expect(late.aborted).toBe(true);
    expect(late.signal.aborted).toBe(true);
  });

  it('joins the frames of one turn into one write, in order with the first and last frames', async () => {
    const writes: string[] = [];
    app = Fastify();
    app.get('/s', async (_request, reply) => {
      const raw = reply.raw;
      const write = raw.write.bind(raw) as (chunk: string) => boolean;
      raw.write = ((chunk: string) => {
        writes.push(String(chunk));
        return write(chunk);
      }) as typeof raw.write;
      const stream = openSseStream(reply);
      stream.writeNow(': first\n\n');
      for (let i = 0; i < 60; i++) void stream.write(`event: token\ndata: ${i}\n\n`);
      await new Promise((resolve) => setImmediate(resolve));
      void stream.write('event: token\ndata: late\n\n');
      stream.finish('event: done\ndata: {}\n\n');
    });
    const response = await app.inject({ method: 'GET', url: '/s' });
    const tokens = Array.from({ length: 60 }, (_, i) => `event: token\ndata: ${i}\n\n`).join('');
    expect(response.body).toBe(`: first\n\n${tokens}event: token\ndata: late\n\nevent: done\ndata: {}\n\n`);
    // The first frame at once, the sixty of one turn in one write, the late one with the end.
    expect(writes).toEqual([': first\n\n', tokens, 'event: token\ndata: late\n\nevent: done\ndata: {}\n\n']);
  });

  it('holds the writer back while the socket takes nothing, and lets it go on once it does', async () => {
    // A response whose socket takes no byte until released: what it was given stays buffered.
    const held: (() => void)[] = [];
    const raw = Object.assign(
      new Writable({
        highWaterMark: 16 * 1024,
        write(_chunk, _encoding, done) {
          held.push(() => done());
        },
      }),
      { writeHead: () => undefined },
    );
    const reply = { raw, hijack: () => undefined, getHeaders: () => ({}) } as unknown as FastifyReply;
    const stream = openSseStream(reply);
    const frame = `: ${'x'.repeat(8 * 1024)}\n\n`;
    let written = 0;
    const producing = (async () => {
      while (written < 200) {
        await stream.write(frame);
        written++;
      }
    })();
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    // Two frames fill the buffer (16 KB): the writer waits there, however many turns pass.
    expect(written).toBeLessThanOrEqual(3);
    const waiting = written;
    // The socket takes everything from now on.
    while (written < 200) {
      held.splice(0).forEach((release) => release());
      await new Promise((resolve) => setImmediate(resolve));
    }
    await producing;
    expect(waiting).toBeGreaterThan(0);
    stream.finish();
    held.splice(0).forEach((release) => release());
  });
});
