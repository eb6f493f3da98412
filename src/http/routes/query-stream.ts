/**
 * The SSE answer stream. Written straight to the socket after `hijack()`:
 * no compression, heartbeat comments, waits for `drain` when the socket is
 * full, and the work is aborted when the client goes away.
 *
 * Latency of the first event is what a chat widget feels, so: the headers
 * leave together with `meta` in one write; a cached answer leaves whole in
 * one write; otherwise retrieval and the answer wait their turn (TurnQueue)
 * so that, under a burst, every stream gets its `meta` first. The built-in
 * answerer's answer is made whole in its turn and leaves with the end of the
 * response; a model's events are written as they come.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AdmittedQuery, cachedEvents, type DoneEvent, eventsOfWholeAnswer, freshMeta, type QueryEvent, type QueryService } from '../../knowledge/query/query-service.js';
import type { Metrics } from '../../ops/metrics.js';
import type { ActiveStreams } from '../active-streams.js';
import { openSseStream, sendSse, sseFrame } from '../sse-writer.js';
import type { TurnQueue } from '../turn-queue.js';

export interface StreamOptions {
  heartbeatMs: number;
  headers: Record<string, string>;
  metrics: Metrics;
  active: ActiveStreams;
  turns: TurnQueue;
  /** The `endpoint` label of the queries metric; `stream` by default. */
  endpoint?: string;
}

function frame(id: number, event: QueryEvent): string {
  const { type, ...payload } = event;
  return sseFrame(type, payload, id);
}

export async function streamAnswer(request: FastifyRequest, reply: FastifyReply, queries: QueryService, admitted: AdmittedQuery, options: StreamOptions): Promise<void> {
  const finished = (outcome: string) => {
    options.metrics.streams.inc({ outcome });
    request.log.info({ res: { statusCode: 200 }, responseTime: reply.elapsedTime, stream: outcome }, 'stream completed');
  };
  const cached = await queries.cachedAnswer(admitted);
  if (cached.type === 'done') {
    // A cached answer: every event and the end of the response in one write.
    sendSse(reply, cachedEvents(request.id, cached).map((event, i) => frame(i + 1, event)).join(''), { headers: options.headers });
    options.metrics.queries.inc({ endpoint: options.endpoint ?? 'stream', cached: 'true', grounded: String(cached.grounded) });
    finished('completed');
    return;
  }

  const stream = openSseStream(reply, { headers: options.headers, heartbeatMs: options.heartbeatMs });
  let id = 0;
  let outcome = 'completed';
  // What is left to send with the end of the response, in the same write.
  let rest = '';
  const errorEvent = (code: string, message: string) => sseFrame('error', { code, message }, ++id);
  const answered = (done: DoneEvent) => {
    options.metrics.queries.inc({ endpoint: options.endpoint ?? 'stream', cached: String(done.cached), grounded: String(done.grounded) });
  };
  const place = options.active.add(async () => {
    outcome = 'shutting_down';
    await stream.write(errorEvent('shutting_down', 'The server is restarting. Ask again.'));
    stream.abort();
  });
  try {
    if (queries.answersWhole) {
      // The built-in answerer: meta at once, then, in this stream's turn, the whole answer made in one
      // call and its events sent with the end of the response (no generator step or write per event).
      stream.writeNow(frame(++id, freshMeta(request.id)));
      await options.turns.wait();
      const done = stream.aborted ? undefined : await queries.answerWhole(admitted, cached, request.id, () => stream.signal);
      if (done && !stream.aborted) {
        rest = eventsOfWholeAnswer(done)
          .map((event) => frame(++id, event))
          .join('');
        answered(done);
      }
    } else {
      for await (const event of queries.answer(admitted, request.id, stream.signal, { miss: cached })) {
        if (stream.aborted) break;
        if (event.type === 'meta') {
          // The client's first sign of life leaves at once (with the headers); the answer waits its turn.
          stream.writeNow(frame(++id, event));
          await options.turns.wait();
          continue;
        }
        await stream.write(frame(++id, event));
        if (event.type === 'done') answered(event);
      }
    }
    if (stream.aborted && outcome === 'completed') outcome = 'client_closed';
  } catch (error) {
    outcome = 'failed';
    request.log.error({ err: error }, 'answer stream failed');
    rest += errorEvent('internal_error', 'The answer could not be completed. Try again.');
  } finally {
    options.active.delete(place);
    stream.finish(rest);
    finished(outcome);
  }
}
