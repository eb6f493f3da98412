/**
 * Answer-stream latency as a client sees it. autocannon only times complete
 * responses, so this opens N concurrent `POST /api/v1/query/stream` requests
 * over keep-alive node:http sockets, parses the events with
 * eventsource-parser and records, from the moment each request is issued:
 * the response headers, the first complete event (`meta`), the first `token`
 * event and the end of the stream. Rounds run back to back; the first rounds
 * warm up sockets and code and are discarded.
 */
import http from 'node:http';
import { createParser } from 'eventsource-parser';
import { histogram, type LatencySummary, recordMs, summarise } from './stats.js';

export interface StreamTiming {
  headersMs: number;
  firstEventMs: number;
  firstEventName: string;
  firstTokenMs: number;
  totalMs: number;
}

export interface StreamTarget {
  url: string;
  ragId: string;
  apiKey: string;
  /** Questions, cycled over the streams of a round. */
  questions: readonly string[];
  /** The server's CPU time so far, in microseconds (to report its cost per stream). */
  serverCpuMicros?: () => Promise<number>;
}

function openStream(agent: http.Agent, target: URL, body: string, apiKey: string): Promise<StreamTiming> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let headersMs = Number.NaN;
    let firstEventMs = Number.NaN;
    let firstEventName = '';
    let firstTokenMs = Number.NaN;
    let failure: string | undefined;
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: '/api/v1/query/stream',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), accept: 'text/event-stream', 'x-api-key': apiKey },
      },
      (response) => {
        headersMs = performance.now() - t0;
        response.setEncoding('utf8');
        if (response.statusCode !== 200) {
          let text = '';
          response.on('data', (chunk: string) => {
            text += chunk;
          });
          response.on('end', () => reject(new Error(`stream refused: HTTP ${response.statusCode} ${text.slice(0, 300)}`)));
          return;
        }
        const parser = createParser({
          onEvent(event) {
            const at = performance.now() - t0;
            if (Number.isNaN(firstEventMs)) {
              firstEventMs = at;
              firstEventName = event.event ?? 'message';
            }
            if (event.event === 'token' && Number.isNaN(firstTokenMs)) firstTokenMs = at;
            if (event.event === 'error') failure = event.data;
          },
        });
        response.on('data', (chunk: string) => parser.feed(chunk));
        response.on('error', reject);
        response.on('end', () => {
          if (failure) reject(new Error(`stream ended with an error event: ${failure}`));
          else if (Number.isNaN(firstTokenMs)) reject(new Error('stream ended without a token event'));
          else resolve({ headersMs, firstEventMs, firstEventName, firstTokenMs, totalMs: performance.now() - t0 });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

export interface StreamScenarioResult {
  concurrency: number;
  rounds: number;
  streams: number;
  headers: LatencySummary;
  firstEvent: LatencySummary;
  firstToken: LatencySummary;
  total: LatencySummary;
  /** Event names seen first (should be only `meta`). */
  firstEventNames: string[];
  /** Streams completed per second of wall time over the measured rounds. */
  streamsPerSecond: number;
  /** Server CPU per stream (µs) and server CPU time / wall time over the measured rounds. */
  serverCpuUsPerStream: number | null;
  serverCpuUtilisation: number | null;
}

export async function streamScenario(target: StreamTarget, concurrency: number, rounds: number, warmupRounds: number): Promise<StreamScenarioResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, maxFreeSockets: 1024 });
  const url = new URL(target.url);
  const bodies = target.questions.map((query) => JSON.stringify({ ragId: target.ragId, query }));
  const h = { headers: histogram(), firstEvent: histogram(), firstToken: histogram(), total: histogram() };
  const names = new Set<string>();
  let wallMs = 0;
  let cpuUs = 0;
  let cpu0 = 0;
  let measuredFrom = 0;
  let utilisation = 0;
  try {
    for (let round = 0; round < warmupRounds + rounds; round++) {
      const measured = round >= warmupRounds;
      if (round === warmupRounds) {
        // Server CPU over all measured rounds at once: one IPC exchange, not one per round.
        cpu0 = target.serverCpuMicros ? await target.serverCpuMicros() : 0;
        measuredFrom = performance.now();
      }
      const t0 = performance.now();
      const timings = await Promise.all(Array.from({ length: concurrency }, (_, i) => openStream(agent, url, bodies[(round * concurrency + i) % bodies.length] as string, target.apiKey)));
      if (!measured) continue;
      wallMs += performance.now() - t0;
      for (const t of timings) {
        recordMs(h.headers, t.headersMs);
        recordMs(h.firstEvent, t.firstEventMs);
        recordMs(h.firstToken, t.firstTokenMs);
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
    agent.destroy();
  }
  return {
    concurrency,
    rounds,
    streams: concurrency * rounds,
    headers: summarise(h.headers),
    firstEvent: summarise(h.firstEvent),
    firstToken: summarise(h.firstToken),
    total: summarise(h.total),
    firstEventNames: [...names],
    streamsPerSecond: Math.round((concurrency * rounds) / (wallMs / 1000)),
    serverCpuUsPerStream: target.serverCpuMicros ? Math.round(cpuUs / (concurrency * rounds)) : null,
    serverCpuUtilisation: target.serverCpuMicros ? Math.round(utilisation * 100) / 100 : null,
  };
}
