/**
 * A lean keep-alive HTTP/1.1 client for answer streams, for the benchmark.
 * With 50 or 200 streams at once a single client process is itself a queue:
 * node:http costs it about 100–300 µs per stream (request objects, parser,
 * events), so the 50th response waited milliseconds in the client before it
 * was even looked at, and the client's own work showed up as server latency.
 * Here a request is one prepared buffer written to a raw socket, and every
 * chunk is timestamped when it arrives, before it is parsed: an event counts
 * as received at the arrival of the chunk that completes it. Bodies are
 * de-chunked here and the events parsed with eventsource-parser.
 */
import net from 'node:net';
import { createParser, type EventSourceParser } from 'eventsource-parser';

export interface StreamTiming {
  headersMs: number;
  firstEventMs: number;
  firstEventName: string;
  firstTokenMs: number;
  /** The complete `done` event (the answer's end, with its sources). */
  doneMs: number;
  totalMs: number;
}

interface Pending {
  t0: number;
  resolve: (timing: StreamTiming) => void;
  reject: (error: Error) => void;
}

/** One keep-alive connection that runs one stream at a time. */
export class SseConnection {
  private readonly socket: net.Socket;
  private readonly ready: Promise<void>;
  private pending: Pending | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private state: 'headers' | 'chunk-size' | 'chunk-data' | 'body' = 'headers';
  private status = 0;
  private chunkLeft = 0;
  private bodyLeft = 0;
  private errorBody = '';
  private parser: EventSourceParser | undefined;
  private arrival = 0;
  private timing: StreamTiming | undefined;
  private failure: string | undefined;

  constructor(port: number, host: string) {
    this.socket = net.connect(port, host);
    this.socket.setNoDelay(true);
    this.ready = new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('error', reject);
    });
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error('connection closed mid-stream')));
  }

  /** Sends the prepared request and resolves when the stream has ended. */
  async run(request: Buffer): Promise<StreamTiming> {
    await this.ready;
    return new Promise((resolve, reject) => {
      this.pending = { t0: performance.now(), resolve, reject };
      this.timing = { headersMs: Number.NaN, firstEventMs: Number.NaN, firstEventName: '', firstTokenMs: Number.NaN, doneMs: Number.NaN, totalMs: Number.NaN };
      this.failure = undefined;
      this.state = 'headers';
      this.socket.write(request);
    });
  }

  close(): void {
    this.pending = undefined;
    this.socket.destroy();
  }

  private fail(error: Error): void {
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(error);
  }

  private onData(chunk: Buffer): void {
    this.arrival = performance.now();
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    try {
      this.consume();
    } catch (error) {
      this.fail(error as Error);
    }
  }

  private since(): number {
    return this.arrival - (this.pending?.t0 ?? this.arrival);
  }

  private consume(): void {
    for (;;) {
      if (!this.pending || !this.timing) return;
      if (this.state === 'headers') {
        const end = this.buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = this.buffer.subarray(0, end).toString('latin1');
        this.buffer = this.buffer.subarray(end + 4);
        this.status = Number(head.slice(9, 12));
        this.timing.headersMs = this.since();
        const chunked = /\r\ntransfer-encoding:\s*chunked/i.test(head);
        if (this.status === 200 && chunked) {
          this.state = 'chunk-size';
          this.parser = createParser({ onEvent: (event) => this.onEvent(event.event ?? 'message', event.data) });
        } else {
          this.bodyLeft = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
          this.errorBody = '';
          this.state = 'body';
        }
      } else if (this.state === 'chunk-size') {
        const end = this.buffer.indexOf('\r\n');
        if (end < 0) return;
        const size = Number.parseInt(this.buffer.subarray(0, end).toString('latin1'), 16);
        if (size === 0) {
          if (this.buffer.length < end + 4) return; // the final CRLF
          this.buffer = this.buffer.subarray(end + 4);
          this.finish();
          continue;
        }
        this.buffer = this.buffer.subarray(end + 2);
        this.chunkLeft = size;
        this.state = 'chunk-data';
      } else if (this.state === 'chunk-data') {
        if (this.buffer.length < this.chunkLeft + 2) return;
        this.parser?.feed(this.buffer.subarray(0, this.chunkLeft).toString('utf8'));
        this.buffer = this.buffer.subarray(this.chunkLeft + 2);
        this.state = 'chunk-size';
      } else {
        const take = Math.min(this.bodyLeft, this.buffer.length);
        this.errorBody += this.buffer.subarray(0, take).toString('utf8');
        this.buffer = this.buffer.subarray(take);
        this.bodyLeft -= take;
        if (this.bodyLeft > 0) return;
        const pending = this.pending;
        this.pending = undefined;
        pending.reject(new Error(`stream refused: HTTP ${this.status} ${this.errorBody.slice(0, 300)}`));
        return;
      }
    }
  }

  private onEvent(name: string, data: string): void {
    const timing = this.timing;
    if (!timing) return;
    if (Number.isNaN(timing.firstEventMs)) {
      timing.firstEventMs = this.since();
      timing.firstEventName = name;
    }
    if (name === 'token' && Number.isNaN(timing.firstTokenMs)) timing.firstTokenMs = this.since();
    if (name === 'done' && Number.isNaN(timing.doneMs)) timing.doneMs = this.since();
    if (name === 'error') this.failure = data;
  }

  private finish(): void {
    const pending = this.pending;
    const timing = this.timing;
    if (!pending || !timing) return;
    timing.totalMs = this.since();
    this.pending = undefined;
    if (this.failure) pending.reject(new Error(`stream ended with an error event: ${this.failure}`));
    else if (Number.isNaN(timing.firstTokenMs)) pending.reject(new Error('stream ended without a token event'));
    else if (Number.isNaN(timing.doneMs)) pending.reject(new Error('stream ended without a done event'));
    else pending.resolve(timing);
  }
}

/** The request bytes for one question. */
export function streamRequest(host: string, body: string, apiKey: string): Buffer {
  const bytes = Buffer.from(body, 'utf8');
  const head =
    `POST /api/v1/query/stream HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}\r\n` +
    `Accept: text/event-stream\r\nX-API-Key: ${apiKey}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), bytes]);
}
