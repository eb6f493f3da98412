/**
 * Static files served compressed (widget.js, the hashed dashboard/tool assets, the OCR tool code),
 * the favicon, and the 404 a browser gets (an HTML page) versus an API client (a problem document).
 * Needs the built pages and widget (dist/web, dist/widget): built here when missing or stale.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widgetBundlePath } from '../../src/http/routes/widget.js';
import { negotiateEncoding } from '../../src/http/compressed.js';
import { startMessage } from '../../src/main.js';
import { buildWeb } from '../browser/support.js';
import { startServer, type TestServer } from '../support/server.js';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request whose body is not decoded (fetch would undo Content-Encoding). */
function get(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

function decode(raw: Raw): Buffer {
  const encoding = raw.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(raw.body);
  if (encoding === 'gzip') return zlib.gunzipSync(raw.body);
  return raw.body;
}

describe('compressed static files, favicon and 404 pages', () => {
  let server: TestServer;
  let widget: Buffer;
  beforeAll(async () => {
    await buildWeb();
    if (!fs.existsSync(widgetBundlePath)) {
      const { build } = await import('vite');
      await build({ configFile: path.resolve('vite.widget.config.ts'), logLevel: 'error' });
    }
    widget = fs.readFileSync(widgetBundlePath);
    server = await startServer();
  }, 120_000);
  afterAll(() => server?.stop());

  it.each([
    ['br', 'gzip, deflate, br'],
    ['gzip', 'gzip'],
  ])('widget.js is sent with content-encoding %s when accepted (%s)', async (encoding, accept) => {
    const res = await get(`${server.baseUrl}/widget.js`, { 'accept-encoding': accept });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.body.length).toBeLessThan(widget.length);
    expect(decode(res).equals(widget)).toBe(true);
    // Its ETag names the form and revalidates.
    const etag = res.headers.etag ?? '';
    expect(etag).toMatch(new RegExp(`-${encoding}"$`));
    const again = await get(`${server.baseUrl}/widget.js`, { 'accept-encoding': accept, 'if-none-match': etag });
    expect(again.status).toBe(304);
  });

  it('widget.js is sent as it is to a client that accepts no compression', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'br;q=0, gzip;q=0' }] as Record<string, string>[]) {
      const res = await get(`${server.baseUrl}/widget.js`, headers);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.body.equals(widget)).toBe(true);
    }
  });

  it('negotiates by q-value, brotli first on a tie', () => {
    expect(negotiateEncoding('gzip, br')).toBe('br');
    expect(negotiateEncoding('br;q=0.5, gzip')).toBe('gzip');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('deflate')).toBe('identity');
    expect(negotiateEncoding(undefined)).toBe('identity');
  });

  it('hashed dashboard assets are immutable for a year and served precompressed', async () => {
    const html = (await get(`${server.baseUrl}/dashboard`)).body.toString('utf8');
    const script = /<script type="module"[^>]*src="(\/web\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script, html).toBeDefined();
    const plain = await get(`${server.baseUrl}${script}`);
    expect(plain.status).toBe(200);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.etag).toBeTruthy();
    for (const encoding of ['br', 'gzip']) {
      const res = await get(`${server.baseUrl}${script}`, { 'accept-encoding': encoding });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.etag).toBeTruthy();
      expect(res.headers.etag).not.toBe(plain.headers.etag);
      expect(decode(res).equals(plain.body)).toBe(true);
    }
  });

  it('the OCR tool code is served compressed once its compressed form is ready', async () => {
    const url = `${server.baseUrl}/tools/assets/ocr/worker.min.js`;
    const first = await get(url, { 'accept-encoding': 'br' });
    expect(first.status).toBe(200);
    expect(first.headers.vary).toMatch(/accept-encoding/i);
    const original = decode(first);
    // The first request starts the compression; a later one gets it. Polled until it is ready: how
    // long brotli takes on a busy machine is not bounded by a number of round trips, only by the
    // test's own (generous) timeout below.
    let res = first;
    while (res.headers['content-encoding'] !== 'br') {
      await new Promise((resolve) => setTimeout(resolve, 20));
      res = await get(url, { 'accept-encoding': 'br' });
    }
    expect(res.headers['content-encoding']).toBe('br');
    expect(decode(res).equals(original)).toBe(true);
    expect(res.headers['cache-control']).toBe('public, max-age=604800');
    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(original)).toBe(true);
  }, 120_000);

  it('serves the favicon at /favicon.ico and /favicon.svg, and the pages link it', async () => {
    for (const p of ['/favicon.ico', '/favicon.svg']) {
      const res = await get(`${server.baseUrl}${p}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(res.body.toString('utf8')).toMatch(/^<svg /);
    }
    for (const page of ['/', '/dashboard', '/tools']) {
      const html = (await get(`${server.baseUrl}${page}`)).body.toString('utf8');
      expect(html, page).toMatch(/<link rel="icon" href="\/favicon\.svg"/);
    }
  });

  it('a browser asking for an unknown page gets an HTML 404; an API client gets the problem document', async () => {
    const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const page = await get(`${server.baseUrl}/no-such-page`, { accept: browserAccept });
    expect(page.status).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body.toString('utf8')).toMatch(/Page not found/);
    expect(page.body.toString('utf8')).toMatch(/href="\/dashboard"/);

    for (const [url, accept] of [
      ['/no-such-page', 'application/json'],
      ['/no-such-page', '*/*'],
      ['/api/v1/no-such-thing', browserAccept],
      ['/oauth/no-such-thing', browserAccept],
    ] as const) {
      const res = await get(`${server.baseUrl}${url}`, { accept });
      expect(res.status, url).toBe(404);
      expect(res.headers['content-type'], `${url} ${accept}`).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ status: 404, code: 'not_found' });
    }
  });

  it('the start message names the dashboard, and the outbox only in development', () => {
    expect(startMessage({ publicUrl: 'http://localhost:3000', devMode: true })).toBe(
      'Groundwork is running: open http://localhost:3000/dashboard (development: sign-in codes appear at http://localhost:3000/dev/outbox)',
    );
    expect(startMessage({ publicUrl: 'https://gw.example', devMode: false })).toBe('Groundwork is running: open https://gw.example/dashboard');
  });
});
