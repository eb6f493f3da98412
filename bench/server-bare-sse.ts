/**
 * The stream baseline: `POST /api/v1/query/stream` on plain `node:http`. It reads and parses the
 * body, then sends the events of a real Groundwork answer stream captured by the runner
 * (BENCH_BARE_SSE_FILE: the frames, `meta` first): the headers and `meta` in one write, then the
 * `token` events and `done` in a second write that ends the response. Groundwork's stream does
 * the same writes plus the work of answering, so the difference is that work and its framework.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveParent } from './children.js';

const file = process.env.BENCH_BARE_SSE_FILE;
const frames: string[] = file
  ? (JSON.parse(fs.readFileSync(file, 'utf8')) as string[])
  : ['event: meta\ndata: {}\n\n', 'event: token\ndata: {"text":"Hello"}\n\n', 'event: done\ndata: {}\n\n'];
const [first = '', ...rest] = frames;
const tail = rest.join('');

const server = http.createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/api/v1/query/stream') {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    try {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    res.write(first);
    res.end(tail);
  });
});
server.keepAliveTimeout = 72_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  serveParent(`http://127.0.0.1:${port}`, () => new Promise<void>((resolve) => server.close(() => resolve())), { server: 'node:http SSE' });
});
