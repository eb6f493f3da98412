/**
 * Answer-stream latency as a client sees it. autocannon only times complete
 * responses, so this opens N concurrent `POST /api/v1/query/stream` requests
 * over keep-alive sockets (bench/sse-client.ts: raw sockets, so the client's
 * own work does not queue 50 streams behind each other), parses the events
 * with eventsource-parser and records, from the moment each request is
 * written: the response headers, the first complete event (`meta`), the
 * first `token` event and the end of the stream. Rounds run back to back; the
 * first rounds warm up sockets and code and are discarded.
 */
import { SseConnection, type StreamTiming, streamRequest } from './sse-client.js';
import { histogram, type LatencySummary, recordMs, summarise } from './stats.js';

export type { StreamTiming };

export interface StreamTarget {
  url: string;
  ragId: string;
  apiKey: string;
  /** Questions, cycled over the streams of a round; or a source that gives a new one per stream (uncached). */
  questions: readonly string[] | (() => string);
  /** The server's CPU time so far, in microseconds (to report its cost per stream). */
  serverCpuMicros?: () => Promise<number>;
}

export interface StreamScenarioResult {
  concurrency: number;
  rounds: number;
  streams: number;
  headers: LatencySummary;
  firstEvent: LatencySummary;
  firstToken: LatencySummary;
  /** The `done` event (end of the answer). */
  done: LatencySummary;
  total: LatencySummary;
  /** Event names seen first (should be only `meta`). */
  firstEventNames: string[];
  /** Streams completed per second of wall time over the measured rounds. */
  streamsPerSecond: number;
  /** Server CPU per stream (µs) and server CPU time / wall time over the measured rounds. */
  serverCpuUsPerStream: number | null;
  serverCpuUtilisation: number | null;
}

/** Warm-up runs `warmupRounds` rounds and goes on until `warmupMs` have passed; then `rounds` rounds are measured. */
export async function streamScenario(target: StreamTarget, concurrency: number, rounds: number, warmupRounds: number, warmupMs = 0): Promise<StreamScenarioResult> {
  const url = new URL(target.url);
  const build = (query: string) => streamRequest(url.host, JSON.stringify({ ragId: target.ragId, query }), target.apiKey);
  const questions = target.questions;
  const fixed = typeof questions === 'function' ? undefined : questions.map(build);
  // A generated question is built into its request before the round starts, not while it is timed.
  const roundRequests = (round: number): Buffer[] =>
    Array.from({ length: concurrency }, (_, i) => (fixed ? (fixed[(round * concurrency + i) % fixed.length] as Buffer) : build((questions as () => string)())));
  const connections = Array.from({ length: concurrency }, () => new SseConnection(Number(url.port), url.hostname));
  const h = { headers: histogram(), firstEvent: histogram(), firstToken: histogram(), done: histogram(), total: histogram() };
  const names = new Set<string>();
  let wallMs = 0;
  let cpuUs = 0;
  let cpu0 = 0;
  let measuredFrom = 0;
  let utilisation = 0;
  try {
    const warmUntil = performance.now() + warmupMs;
    let warmup = 0;
    while (warmup < warmupRounds || performance.now() < warmUntil) {
      const requests = roundRequests(warmup);
      await Promise.all(connections.map((connection, i) => connection.run(requests[i] as Buffer)));
      warmup++;
    }
    // Server CPU over all measured rounds at once: one IPC exchange, not one per round.
    cpu0 = target.serverCpuMicros ? await target.serverCpuMicros() : 0;
    measuredFrom = performance.now();
    for (let round = warmup; round < warmup + rounds; round++) {
      const requests = roundRequests(round);
      const t0 = performance.now();
      const timings = await Promise.all(connections.map((connection, i) => connection.run(requests[i] as Buffer)));
      wallMs += performance.now() - t0;
      for (const t of timings) {
        recordMs(h.headers, t.headersMs);
        recordMs(h.firstEvent, t.firstEventMs);
        recordMs(h.firstToken, t.firstTokenMs);
        recordMs(h.done, t.doneMs);
        recordMs(h.total, t.totalMs);
        names.add(t.firstEventName);
      }
    }
    if (target.serverCpuMicros) {
      const cpuWallMs = performance.now() - measuredFrom;
      cpuUs = (await target.serverCpuMicros()) - cpu0;
      utilisation = cpuUs / (cpuWallMs * 1000);
    }
  } finally {
    for (const connection of connections) connection.close();
  }
  return {
    concurrency,
    rounds,
    streams: concurrency * rounds,
    headers: summarise(h.headers),
    firstEvent: summarise(h.firstEvent),
    firstToken: summarise(h.firstToken),
    done: summarise(h.done),
    total: summarise(h.total),
    firstEventNames: [...names],
    streamsPerSecond: Math.round((concurrency * rounds) / (wallMs / 1000)),
    serverCpuUsPerStream: target.serverCpuMicros ? Math.round(cpuUs / (concurrency * rounds)) : null,
    serverCpuUtilisation: target.serverCpuMicros ? Math.round(utilisation * 100) / 100 : null,
  };
}
