/**
 * The SSE answer stream. Written straight to the socket after `hijack()`:
 * no compression, heartbeat comments, waits for `drain` when the socket is
 * full, and the work is aborted when the client goes away.
 *
 * Latency of the first event is what a chat widget feels, so: the headers
 * leave together with `meta` in one write; a cached answer leaves whole in
 * one write; otherwise retrieval and the answer wait their turn (TurnQueue)
 * so that, under a burst, every stream gets its `meta` first.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AdmittedQuery, cachedEvents, type DoneEvent, type QueryEvent, type QueryService } from '../../knowledge/query/query-service.js';
import type { Metrics } from '../../ops/metrics.js';
import type { TurnQueue } from '../turn-queue.js';

export interface StreamOptions {
  heartbeatMs: number;
  headers: Record<string, string>;
  metrics: Metrics;
  active: ActiveStreams;
  turns: TurnQueue;
}

/**
 * The streams in flight, for graceful shutdown: the server stops accepting,
 * gives running answers a few seconds to finish, then ends the rest with an
 * `error` event (code `shutting_down`) so clients know to retry elsewhere.
 */
export class ActiveStreams {
  private readonly streams = new Map<AbortController, () => Promise<void>>();

  add(controller: AbortController, endWithError: () => Promise<void>): void {
    this.streams.set(controller, endWithError);
  }

  delete(controller: AbortController): void {
    this.streams.delete(controller);
  }

  get size(): number {
    return this.streams.size;
  }

  async drain(graceMs: number): Promise<void> {
    const deadline = Date.now() + graceMs;
    while (this.streams.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    await Promise.all([...this.streams.values()].map((end) => end()));
  }
}

function frame(id: number, event: QueryEvent): string {
  const { type, ...payload } = event;
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(payload)}\n\n`;
}

function startStream(reply: FastifyReply, headers: Record<string, string>): ServerResponse {
  const res = reply.raw;
  reply.hijack();
  // No flushHeaders(): Node sends the headers with the first event, in the same write.
  res.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
  });
  return res;
}

/** A cached answer: every event and the end of the response in one write. */
function sendCached(res: ServerResponse, requestId: string, done: DoneEvent): void {
  res.cork();
  res.write(cachedEvents(requestId, done).map((event, i) => frame(i + 1, event)).join(''));
  res.end();
  res.uncork();
}

export async function streamAnswer(request: FastifyRequest, reply: FastifyReply, queries: QueryService, admitted: AdmittedQuery, options: StreamOptions): Promise<void> {
  const finished = (outcome: string) => {
    options.metrics.streams.inc({ outcome });
    request.log.info({ res: { statusCode: 200 }, responseTime: reply.elapsedTime, stream: outcome }, 'stream completed');
  };
  const cached = await queries.cachedAnswer(admitted);
  const res = startStream(reply, options.headers);
  if (cached.type === 'done') {
    sendCached(res, request.id, cached);
    options.metrics.queries.inc({ endpoint: 'stream', cached: 'true', grounded: String(cached.grounded) });
    finished('completed');
    return;
  }

  const controller = new AbortController();
  res.on('close', () => controller.abort());
  // Events produced in one turn of the event loop (the extractive answer's tokens come all at
  // once) leave in one socket write: corked on the first write, uncorked when the loop moves on.
  let corked = false;
  const write = async (chunk: string): Promise<void> => {
    if (controller.signal.aborted || res.writableEnded) return;
    if (!corked) {
      corked = true;
      res.cork();
      setImmediate(() => {
        corked = false;
        res.uncork();
      });
    }
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  };

  const heartbeat = setInterval(() => void write(': ping\n\n'), options.heartbeatMs);
  let id = 0;
  let outcome = 'completed';
  const errorEvent = (code: string, message: string) => `id: ${++id}\nevent: error\ndata: ${JSON.stringify({ code, message })}\n\n`;
  options.active.add(controller, async () => {
    outcome = 'shutting_down';
    await write(errorEvent('shutting_down', 'The server is restarting. Ask again.'));
    controller.abort();
  });
  try {
    for await (const event of queries.answer(admitted, request.id, controller.signal, { miss: cached })) {
      if (controller.signal.aborted) break;
      if (event.type === 'meta') {
        // The client's first sign of life leaves at once (with the headers); the answer waits its turn.
        res.write(frame(++id, event));
        await options.turns.wait();
        continue;
      }
      await write(frame(++id, event));
      if (event.type === 'done') {
        options.metrics.queries.inc({ endpoint: 'stream', cached: String(event.cached), grounded: String(event.grounded) });
      }
    }
    if (controller.signal.aborted && outcome === 'completed') outcome = 'client_closed';
  } catch (error) {
    outcome = 'failed';
    request.log.error({ err: error }, 'answer stream failed');
    await write(errorEvent('internal_error', 'The answer could not be completed. Try again.'));
  } finally {
    options.active.delete(controller);
    clearInterval(heartbeat);
    if (!res.writableEnded) res.end();
    finished(outcome);
  }
}
