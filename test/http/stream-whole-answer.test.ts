/**
 * The answer stream of an answerer that makes its answer whole in process (the built-in one):
 * `meta` at once, then, in the stream's turn, `sources`, the answer as one `token` and `done`
 * with the end of the response; a client that leaves before its turn costs no answer at all.
 * The route runs on a real Fastify server and socket, with the query service and the turn queue
 * standing in, so that the turn can be held while the client goes.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ActiveStreams } from '../../src/http/active-streams.js';
import { streamAnswer } from '../../src/http/routes/query-stream.js';
import type { TurnQueue } from '../../src/http/turn-queue.js';
import type { AdmittedQuery, DoneEvent, QueryService } from '../../src/knowledge/query/query-service.js';
import { Metrics } from '../../src/ops/metrics.js';

let app: FastifyInstance | undefined;
/** The server's side of every connection. */
let sockets: Socket[] = [];
afterEach(async () => {
  await app?.close();
  app = undefined;
  sockets = [];
});

const done: DoneEvent = {
  type: 'done',
  answer: 'Orders ship from Bremen. [1]',
  sources: [{ sourceName: 'faq.md', title: 'Shipping', recordId: 'r1', passage: 'Orders ship from Bremen.', score: 1 }],
  grounded: true,
  cached: false,
};

/** A turn queue whose turns come when the test lets them. */
function heldTurns(): { turns: TurnQueue; release: () => void; asked: Promise<void> } {
  let release!: () => void;
  let asked!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const waited = new Promise<void>((resolve) => (asked = resolve));
  const turns = {
    wait: () => {
      asked();
      return gate;
    },
  } as unknown as TurnQueue;
  return { turns, release, asked: waited };
}

async function serve(turns: TurnQueue): Promise<{ port: number; answerWhole: ReturnType<typeof vi.fn>; metrics: Metrics; active: ActiveStreams }> {
  const answerWhole = vi.fn(async () => done);
  // `answer` (the event path) makes the answer with the same spy once asked for the event after meta.
  async function* answer(_admitted: AdmittedQuery, requestId: string) {
    yield { type: 'meta', requestId, cached: false };
    const made = await answerWhole();
    yield { type: 'sources', sources: made.sources };
    yield { type: 'token', text: made.answer };
    yield made;
  }
  const queries = { answersWhole: true, cachedAnswer: async () => ({ type: 'miss' }), answerWhole, answer } as unknown as QueryService;
  const metrics = new Metrics();
  const active = new ActiveStreams();
  app = Fastify();
  app.post('/s', async (request, reply) => {
    await streamAnswer(request, reply, queries, {} as AdmittedQuery, { heartbeatMs: 0, headers: {}, metrics, active, turns });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  app.server.on('connection', (socket: Socket) => sockets.push(socket));
  return { port: (app.server.address() as AddressInfo).port, answerWhole, metrics, active };
}

async function streamOutcomes(metrics: Metrics): Promise<Record<string, number>> {
  const values = (await metrics.streams.get()).values;
  return Object.fromEntries(values.map((v) => [String(v.labels.outcome), v.value]));
}

describe('a stream of an answer made whole in process', () => {
  it('sends meta at once, and sources, one token and done with the end once its turn comes', async () => {
    const { turns, release, asked } = heldTurns();
    const { port, answerWhole, metrics } = await serve(turns);
    const response = await fetch(`http://127.0.0.1:${port}/s`, { method: 'POST' });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    // meta arrives while the turn is held, before any answer work.
    const first = await reader.read();
    await asked;
    expect(decoder.decode(first.value)).toMatch(/^id: 1\nevent: meta\ndata: \{"requestId":"[^"]+","cached":false\}\n\n$/);
    expect(answerWhole).not.toHaveBeenCalled();
    release();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += decoder.decode(chunk.value, { stream: true });
    const { type: _type, ...payload } = done;
    expect(rest).toBe(
      `id: 2\nevent: sources\ndata: ${JSON.stringify({ sources: done.sources })}\n\n` +
        `id: 3\nevent: token\ndata: ${JSON.stringify({ text: done.answer })}\n\n` +
        `id: 4\nevent: done\ndata: ${JSON.stringify(payload)}\n\n`,
    );
    expect(answerWhole).toHaveBeenCalledTimes(1);
    expect(await streamOutcomes(metrics)).toEqual({ completed: 1 });
  });

  it('a client that leaves before its turn costs no answer', async () => {
    const { turns, release, asked } = heldTurns();
    const { port, answerWhole, metrics, active } = await serve(turns);
    await new Promise<void>((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, path: '/s', method: 'POST', agent: false }, (res) => {
        // Gone as soon as meta has come.
        res.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', (error) => {
        if (!request.destroyed) reject(error);
      });
      request.end();
    });
    await asked;
    // The server has seen the connection close before the turn comes.
    await vi.waitFor(() => expect(sockets.length > 0 && sockets.every((socket) => socket.destroyed)).toBe(true), { timeout: 10_000 });
    expect(active.size).toBe(1);
    release();
    await vi.waitFor(async () => expect(await streamOutcomes(metrics)).toEqual({ client_closed: 1 }), { timeout: 10_000 });
    expect(answerWhole).not.toHaveBeenCalled();
  });
});
