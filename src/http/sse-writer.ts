/**
 * The one way a route answers with Server-Sent Events: the reply is hijacked and written straight
 * to the socket (no compression), with the SSE headers (sent with the first event, in the same
 * write), heartbeat comments while it is quiet, back-pressure (a write waits for `drain` when the
 * socket is full), events of one event-loop turn joined into one string and one socket write (an
 * extractive answer is a `token` event per word: sixty writes of a few bytes cost Node's stream
 * and the socket far more than one), and an abort signal that fires when the client goes away.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

export interface SseWriter {
  /** Aborted when the client closes the connection (or `abort()` is called); made when first asked for. */
  readonly signal: AbortSignal;
  /** Whether the client closed the connection before the end, or `abort()` was called (what `signal` says, without making it). */
  readonly aborted: boolean;
  /** Whether the response has ended or the client has gone. */
  readonly closed: boolean;
  /** Queues a frame; resolves once the socket can take more. Nothing happens after the stream closed. */
  write(frame: string): Promise<void>;
  /** Writes a frame at once, uncorked (the first sign of life, with the headers). */
  writeNow(frame: string): void;
  /** Everything that is left, then the end of the response, in one socket write. */
  finish(frames?: string): void;
  /** Stops the stream's work (its signal) without ending the response. */
  abort(): void;
}

export interface SseOptions {
  /** Extra response headers (rate-limit headers, request id). */
  headers?: Record<string, string>;
  /** A `: ping` comment this often; 0 for none. */
  heartbeatMs?: number;
}

/** One SSE frame: `event` and `data` lines, with an `id` when given. */
export function sseFrame(event: string, data: unknown, id?: number): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function startSse(reply: FastifyReply, headers: Record<string, string> | undefined): ServerResponse {
  const res: ServerResponse = reply.raw;
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

/**
 * A whole SSE response known in advance (a cached answer): headers, every frame and the end in
 * one socket write, with none of a live stream's machinery.
 */
export function sendSse(reply: FastifyReply, frames: string, options: Pick<SseOptions, 'headers'> = {}): void {
  const res = startSse(reply, options.headers);
  res.cork();
  res.write(frames);
  res.end();
  res.uncork();
}

/** Joined frames past this many characters are written at once rather than at the turn's end (back-pressure within a turn). */
const WRITE_AT_CHARS = 16 * 1024;

export function openSseStream(reply: FastifyReply, options: SseOptions = {}): SseWriter {
  const res = startSse(reply, options.headers);
  // The abort signal is made only for work that listens to it (a model's answer, an A2A task): an
  // answer made whole in process checks `aborted` (an AbortController and its EventTarget are a
  // few µs of a stream's ~100 of CPU).
  let controller: AbortController | undefined;
  let aborted = false;
  const abort = () => {
    aborted = true;
    controller?.abort();
  };
  let heartbeat: NodeJS.Timeout | undefined;
  const stop = () => {
    if (heartbeat !== undefined) clearInterval(heartbeat);
    heartbeat = undefined;
  };
  res.once('close', () => {
    stop();
    // Only a client that left before the end stops the work (once ended, there is none left);
    // aborting costs a DOMException with a stack trace.
    if (!res.writableEnded) abort();
  });
  const gone = () => res.writableEnded || res.destroyed;

  // Frames written in one turn of the event loop, joined; they leave in one write at the turn's end.
  let pending = '';
  const flush = () => {
    const frames = pending;
    pending = '';
    if (frames && !gone()) res.write(frames);
  };
  const writer: SseWriter = {
    get signal() {
      if (controller === undefined) {
        controller = new AbortController();
        if (aborted) controller.abort();
      }
      return controller.signal;
    },
    get aborted() {
      return aborted;
    },
    get closed() {
      return gone();
    },
    async write(frame) {
      if (gone()) return;
      if (pending === '') setImmediate(flush);
      pending += frame;
      if (pending.length < WRITE_AT_CHARS) {
        if (!res.writableNeedDrain) return;
      } else {
        // A turn that writes this much writes it now, and waits if the socket cannot take more.
        const frames = pending;
        pending = '';
        if (res.write(frames)) return;
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    },
    writeNow(frame) {
      if (gone()) return;
      // After anything still waiting for the turn's end, in order.
      const frames = pending + frame;
      pending = '';
      res.write(frames);
    },
    finish(frames = '') {
      stop();
      if (gone()) return;
      const rest = pending + frames;
      pending = '';
      res.cork();
      if (rest) res.write(rest);
      res.end();
      res.uncork();
    },
    abort,
  };
  if (options.heartbeatMs) heartbeat = setInterval(() => void writer.write(': ping\n\n'), options.heartbeatMs);
  return writer;
}
