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

/** What makes a response an event stream, after the route's own headers. */
const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
  connection: 'keep-alive',
};

function startSse(reply: FastifyReply, headers: Record<string, string> | undefined): ServerResponse {
  const res: ServerResponse = reply.raw;
  reply.hijack();
  // No flushHeaders(): Node sends the headers with the first event, in the same write.
  // Object.assign, not `{ ...a, key: value }`: docs/decisions.md, "Per-request objects and V8's young generation".
  res.writeHead(200, Object.assign({}, reply.getHeaders() as Record<string, string>, headers, SSE_HEADERS));
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
  return new LiveSseWriter(startSse(reply, options.headers), options.heartbeatMs ?? 0);
}

/**
 * A live stream's writer. A class, not an object literal of closures: a literal with its own
 * `get` accessors gets a hidden class (map) of its own in V8's old generation, made per stream,
 * whose accessor pair kept that stream's closures, response and request alive through young-
 * generation collections until the next full one (docs/decisions.md, "Per-request objects and V8's young generation").
 */
class LiveSseWriter implements SseWriter {
  /** Made only for work that listens to it (a model's answer, an A2A task): an answer made whole in
   * process checks `aborted` (an AbortController and its EventTarget are a few µs of a stream's ~100 of CPU). */
  private controller: AbortController | undefined;
  private abortedFlag = false;
  private heartbeat: NodeJS.Timeout | undefined;
  /** Frames written in one turn of the event loop, joined; they leave in one write at the turn's end. */
  private pending = '';

  constructor(
    private readonly res: ServerResponse,
    heartbeatMs: number,
  ) {
    res.once('close', this.onClose);
    if (heartbeatMs) this.heartbeat = setInterval(this.ping, heartbeatMs);
  }

  private readonly onClose = (): void => {
    this.stop();
    // Only a client that left before the end stops the work (once ended, there is none left);
    // aborting costs a DOMException with a stack trace.
    if (!this.res.writableEnded) this.abort();
  };

  private readonly ping = (): void => {
    void this.write(': ping\n\n');
  };

  private readonly flush = (): void => {
    const frames = this.pending;
    this.pending = '';
    if (frames && !this.closed) this.res.write(frames);
  };

  private stop(): void {
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abortedFlag) this.controller.abort();
    }
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.abortedFlag;
  }

  get closed(): boolean {
    return this.res.writableEnded || this.res.destroyed;
  }

  abort(): void {
    this.abortedFlag = true;
    this.controller?.abort();
  }

  async write(frame: string): Promise<void> {
    if (this.closed) return;
    if (this.pending === '') setImmediate(this.flush);
    this.pending += frame;
    const res = this.res;
    if (this.pending.length < WRITE_AT_CHARS) {
      if (!res.writableNeedDrain) return;
    } else {
      // A turn that writes this much writes it now, and waits if the socket cannot take more.
      const frames = this.pending;
      this.pending = '';
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
  }

  writeNow(frame: string): void {
    if (this.closed) return;
    // After anything still waiting for the turn's end, in order.
    const frames = this.pending + frame;
    this.pending = '';
    this.res.write(frames);
  }

  finish(frames = ''): void {
    this.stop();
    if (this.closed) return;
    const rest = this.pending + frames;
    this.pending = '';
    const res = this.res;
    res.cork();
    if (rest) res.write(rest);
    res.end();
    res.uncork();
  }
}
