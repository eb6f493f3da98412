/**
 * The SSE reader shared by the SDK and the dashboard (src/sdk/sse.ts, over `eventsource-parser`):
 * the WHATWG edge cases the clients rely on, and a property test that any chunking of a random
 * stream with mixed line ends parses like the whole stream fed at once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseParser, readSse, type SseMessage } from '../../src/sdk/sse.js';

function parse(chunks: string[]): SseMessage[] {
  const out: SseMessage[] = [];
  const parser = createSseParser((m) => out.push(m));
  for (const chunk of chunks) parser.feed(chunk);
  return out;
}

describe('createSseParser', () => {
  it('reads events with names, multi-line data and ids; skips comments and retry', () => {
    const events = parse([': ping\n\nid: 1\nevent: meta\ndata: {"a":1}\n\ndata: one\ndata:two\nretry: 3000\n\n']);
    expect(events).toEqual([
      { event: 'meta', data: '{"a":1}', id: '1' },
      { event: 'message', data: 'one\ntwo', id: '1' },
    ]);
  });

  it('treats CR, LF and CRLF alike, also when a CRLF is split between chunks', () => {
    expect(parse(['data: a\r', '\n\r', '\ndata: b\r\r\n'])).toEqual([
      { event: 'message', data: 'a', id: '' },
      { event: 'message', data: 'b', id: '' },
    ]);
  });

  it('drops a leading BOM, keeps further spaces, accepts fields without a colon, ignores ids with NUL', () => {
    expect(parse(['\uFEFFid: 7\ndata:  two spaces\n\n', 'id: x\0y\ndata\n\n'])).toEqual([
      { event: 'message', data: ' two spaces', id: '7' },
      { event: 'message', data: '', id: '7' },
    ]);
  });

  it('does not dispatch an event without data, and resets the event name after a blank line', () => {
    expect(parse(['event: lonely\n\ndata: x\n\n'])).toEqual([{ event: 'message', data: 'x', id: '' }]);
  });

  it('decodes UTF-8 split across chunks and discards an unterminated last event', async () => {
    const bytes = new TextEncoder().encode('data: grüße\n\ndata: cut');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 10)); // inside "ü"
        controller.enqueue(bytes.slice(10));
        controller.close();
      },
    });
    const events: SseMessage[] = [];
    for await (const message of readSse(body)) events.push(message);
    expect(events).toEqual([{ event: 'message', data: 'grüße', id: '' }]);
  });

  it('cancels the body when the reader stops early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('data: tick\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const message of readSse(body)) {
      expect(message.data).toBe('tick');
      break;
    }
    expect(cancelled).toBe(true);
  });

  it('parses any chunking of random streams like the whole stream at once', () => {
    const text = fc.stringMatching(/^[^\r\n]{0,12}$/);
    const event = fc.record({ name: fc.option(fc.stringMatching(/^[a-z]{1,8}$/), { nil: undefined }), lines: fc.array(text, { minLength: 1, maxLength: 3 }), comment: fc.boolean() });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 6 }), fc.constantFrom('\n', '\r\n', '\r'), fc.array(fc.nat(), { maxLength: 8 }), (events, eol, cuts) => {
        const raw = events
          .map((e) => (e.comment ? `: note${eol}` : '') + (e.name ? `event: ${e.name}${eol}` : '') + e.lines.map((l) => `data: ${l}${eol}`).join('') + eol)
          .join('');
        const positions = [...new Set(cuts.map((c) => c % (raw.length + 1)))].sort((a, b) => a - b);
        const chunks: string[] = [];
        let last = 0;
        for (const p of positions) {
          chunks.push(raw.slice(last, p));
          last = p;
        }
        chunks.push(raw.slice(last));

        // A final CR might begin a CRLF, so the parser waits for the next character; a comment line settles it.
        const expected = events.map((e) => ({ event: e.name ?? 'message', data: e.lines.join('\n') }));
        expect(parse([...chunks, ':\n']).map((m) => ({ event: m.event, data: m.data }))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
