/**
 * The SSE answer stream. Written straight to the socket after `hijack()`:
 * headers flushed at once, one `write` per event, no compression, waits for
 * `drain` when the socket is full, heartbeat comments, and the work is
 * aborted when the client goes away.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdmittedQuery, QueryEvent, QueryService } from '../../knowledge/query/query-service.js';
import type { Metrics } from '../../ops/metrics.js';

export interface StreamOptions {
  heartbeatMs: number;
  headers: Record<string, string>;
  metrics: Metrics;
  active: ActiveStreams;
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

function payloadOf(event: QueryEvent): unknown {
  const { type: _type, ...payload } = event;
  return payload;
}

export async function streamAnswer(request: FastifyRequest, reply: FastifyReply, queries: QueryService, admitted: AdmittedQuery, options: StreamOptions): Promise<void> {
  const res = reply.raw;
  const controller = new AbortController();
  reply.hijack();
  res.on('close', () => controller.abort());
  res.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    ...options.headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
  });
  res.flushHeaders();

  // Events produced in one turn of the event loop (the extractive answer's tokens come all at
  // once) leave in one socket write: corked on the first write, uncorked when the loop moves on.
  // `meta` is never held back: it is the client's first sign of life.
  let corked = false;
  const write = async (chunk: string, batch = true): Promise<void> => {
    if (controller.signal.aborted || res.writableEnded) return;
    if (batch && !corked) {
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
    for await (const event of queries.answer(admitted, request.id, controller.signal)) {
      if (controller.signal.aborted) break;
      await write(`id: ${++id}\nevent: ${event.type}\ndata: ${JSON.stringify(payloadOf(event))}\n\n`, event.type !== 'meta');
      // Let other streams send their `meta` before this one retrieves and answers:
      // under concurrency the first event then waits for no one's answer.
      if (event.type === 'meta') await new Promise((resolve) => setImmediate(resolve));
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
    options.metrics.streams.inc({ outcome });
    request.log.info({ res: { statusCode: 200 }, responseTime: reply.elapsedTime, stream: outcome }, 'stream completed');
  }
}
