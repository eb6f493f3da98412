/**
 * Server-Sent Events read with `fetch` (which, unlike `EventSource`, can POST a body and send
 * headers such as `X-API-Key`), parsed by `eventsource-parser`: the one SSE parser of the
 * project (the SDK, the dashboard and the LLM adapter). It follows the WHATWG "event stream
 * interpretation" rules and runs in browsers and in Node alike.
 */
import { createParser } from 'eventsource-parser';

export interface SseMessage {
  /** `message` when the event named no type. */
  event: string;
  data: string;
  /** The last event id seen so far on this stream (it persists across events, as in EventSource). */
  id: string;
}

export interface SseParser {
  /** Feeds decoded text; calls `onMessage` for every complete event. */
  feed(text: string): void;
  /** Forgets any partial line or event (for example before reading a new stream). */
  reset(): void;
}

export function createSseParser(onMessage: (message: SseMessage) => void): SseParser {
  let lastId = '';
  let first = true;
  const parser = createParser({
    onEvent(e) {
      if (e.id !== undefined) lastId = e.id;
      onMessage({ event: e.event ?? 'message', data: e.data, id: lastId });
    },
  });
  return {
    feed(text) {
      // The stream may begin with a byte order mark (TextDecoder drops it; a caller feeding text may not).
      if (first && text.length > 0) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      parser.feed(text);
    },
    reset() {
      first = true;
      parser.reset();
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
