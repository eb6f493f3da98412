/**
 * A Server-Sent Events parser for streams read with `fetch` (which, unlike
 * `EventSource`, can POST a body and send headers such as `X-API-Key`).
 * Follows the WHATWG "event stream interpretation" rules: CR, LF or CRLF line
 * ends (a CRLF split across chunks counts once), a leading BOM is dropped,
 * comment lines (`: ping`) are skipped, `data` lines are joined with `\n`, an
 * event is dispatched on a blank line only when it has data, `id` with a NUL
 * is ignored, `retry` must be all digits. No dependencies, no DOM: it runs in
 * browsers and in Node 20 alike.
 */

export interface SseMessage {
  /** `message` when the event named no type. */
  event: string;
  data: string;
  /** The last event id seen so far on this stream (it persists across events, as in EventSource). */
  id: string;
  /** The reconnection time the server asked for, when this event carried one. */
  retry?: number;
}

export interface SseParser {
  /** Feeds decoded text; calls `onMessage` for every complete event. */
  feed(text: string): void;
  /** Forgets any partial line or event (for example before reading a new stream). */
  reset(): void;
}

export function createSseParser(onMessage: (message: SseMessage) => void): SseParser {
  let buffer = '';
  let first = true;
  let skipLf = false;
  let data: string[] = [];
  let event = '';
  let lastId = '';
  let retry: number | undefined;

  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) {
        const message: SseMessage = { event: event || 'message', data: data.join('\n'), id: lastId };
        if (retry !== undefined) message.retry = retry;
        onMessage(message);
      }
      data = [];
      event = '';
      retry = undefined;
      return;
    }
    if (text.charCodeAt(0) === 58 /* : */) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.charCodeAt(0) === 32 /* space */) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id') {
      if (!value.includes('\0')) lastId = value;
    } else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  };

  return {
    feed(text: string) {
      if (first && text.length > 0) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      if (skipLf && text.length > 0) {
        if (text.charCodeAt(0) === 10) text = text.slice(1);
        skipLf = false;
      }
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        line(buffer.slice(start, i));
        if (c === 13) {
          if (i + 1 === buffer.length) skipLf = true;
          else if (buffer.charCodeAt(i + 1) === 10) i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    reset() {
      buffer = '';
      first = true;
      skipLf = false;
      data = [];
      event = '';
      retry = undefined;
    },
  };
}

/**
 * Reads an SSE body to its end, yielding each event as it completes.
 * Cancelling the iteration (`break`, `return`, an abort) cancels the body.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const queue: SseMessage[] = [];
  const parser = createSseParser((m) => queue.push(m));
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        parser.feed(decoder.decode());
        finished = true;
        // An event without its final blank line is incomplete: the spec discards it.
        yield* queue.splice(0);
        return;
      }
      parser.feed(decoder.decode(value, { stream: true }));
      yield* queue.splice(0);
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
