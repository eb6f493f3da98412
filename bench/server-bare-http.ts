/**
 * The second baseline: `POST /api/v1/query` on plain `node:http`, no framework. It reads the
 * body, parses and checks it as the other servers do (ragId and query strings), and answers the
 * same fixed JSON as the bare Fastify route (the runner's captured cached answer, from
 * BENCH_BARE_BODY_FILE) with a fresh request id. What remains between it and bare Fastify is
 * Fastify's own cost; between it and Groundwork, everything. Started like the other servers.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BareAnswer, fallbackAnswer } from './bare-app.js';
import { serveParent } from './children.js';

const file = process.env.BENCH_BARE_BODY_FILE;
const answer: BareAnswer = file ? (JSON.parse(fs.readFileSync(file, 'utf8')) as BareAnswer) : fallbackAnswer;
let nextId = 0;

function refuse(res: http.ServerResponse, status: number): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status }));
}

const server = http.createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/api/v1/query') return refuse(res, 404);
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return refuse(res, 400);
    }
    const { ragId, query } = (body ?? {}) as { ragId?: unknown; query?: unknown };
    if (typeof ragId !== 'string' || typeof query !== 'string') return refuse(res, 400);
    const text = JSON.stringify({ ...answer, requestId: `req-${++nextId}` });
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) }).end(text);
  });
});
server.keepAliveTimeout = 72_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  serveParent(`http://127.0.0.1:${port}`, () => new Promise<void>((resolve) => server.close(() => resolve())), { server: 'node:http' });
});
