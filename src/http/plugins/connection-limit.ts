/**
 * A cap on the connections one client address holds open at once
 * (IP_MAX_CONNECTIONS). The request limit (ip-limit.ts) counts requests; a
 * client that opens many connections and then sends its headers or body a
 * byte at a time makes almost no requests and would pass it, so connections
 * are counted where they are accepted.
 *
 * A connection over the cap never reaches Node's HTTP parser or a route: it
 * gets one `429 rate_limited` problem (`limit: "connections"`) and is closed.
 * Connections from a trusted proxy (TRUST_PROXY) are not counted: every client
 * behind it shares its address, and holding client connections is then the
 * proxy's job.
 */
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';
import { catalogue } from '../../errors.js';
import type { Metrics } from '../../ops/metrics.js';
import { problemTypeUrl } from '../problem.js';
import { trustedPeer } from './trusted-peer.js';

export interface ConnectionLimitOptions {
  maxPerIp: number;
  trustProxy: boolean | number | string[];
  publicUrl: string;
  metrics: Metrics;
}

/** How long a refused connection may linger (reading and discarding) before it is destroyed. */
const refusalLingerMs = 2000;

export function limitConnectionsPerIp(app: FastifyInstance, options: ConnectionLimitOptions): void {
  if (options.maxPerIp <= 0) return;
  const trusted = trustedPeer(options.trustProxy);
  const open = new Map<string, number>();
  const server = app.server;
  // Node's own listener (the HTTP parser) and any other run only for admitted connections.
  const listeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  let refusals = 0;

  server.on('connection', (socket: Socket) => {
    const address = normalise(socket.remoteAddress);
    if (address !== undefined && !trusted(address)) {
      const count = open.get(address) ?? 0;
      if (count >= options.maxPerIp) {
        options.metrics.rateLimited.inc({ limit: 'connections' });
        refuse(socket, refusalResponse(options, `req_conn_${(++refusals).toString(36)}`));
        return;
      }
      open.set(address, count + 1);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left <= 0) open.delete(address);
        else open.set(address, left);
      });
    }
    for (const listener of listeners) listener.call(server, socket);
  });
}

/** The peer address as Fastify's `request.ip` shows it: IPv4-mapped IPv6 addresses as plain IPv4. */
function normalise(address: string | undefined): string | undefined {
  return address?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
}

/**
 * Closes without resetting: the response is written and our side ended, what
 * the client still sends is read and dropped (closing a socket with unread
 * data sends a reset, which can destroy the response before the client reads it).
 */
function refuse(socket: Socket, response: string): void {
  socket.on('error', () => socket.destroy());
  socket.once('end', () => socket.destroy());
  socket.setTimeout(refusalLingerMs, () => socket.destroy());
  socket.resume();
  socket.end(response);
}

function refusalResponse(options: ConnectionLimitOptions, requestId: string): string {
  const spec = catalogue.rate_limited;
  const body = JSON.stringify({
    type: problemTypeUrl(options.publicUrl, 'rate_limited'),
    title: spec.title,
    status: spec.status,
    detail: `This address already has ${options.maxPerIp} open connections to the service. Close one, or reuse it (keep-alive).`,
    code: 'rate_limited',
    requestId,
    limit: 'connections',
    retryAfterMs: 1000,
  });
  return [
    'HTTP/1.1 429 Too Many Requests',
    'content-type: application/problem+json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'retry-after: 1',
    `x-request-id: ${requestId}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}
