/**
 * How the service serves the web pages (src/http/routes/web.ts), without a
 * browser: SPA fallback for /dashboard*, caching (immutable hashed assets,
 * revalidated HTML), the Content-Security-Policy, and a clear 503 when the
 * pages were never built.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fallbackPageCss, pageCsp, previewCsp, webRoutes } from '../../src/http/routes/web.js';

async function appWith(root: string) {
  const app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
  await webRoutes(app, { root });
  await app.ready();
  return app;
}

describe('serving the web pages', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-web-'));
  let app: Awaited<ReturnType<typeof appWith>>;

  beforeAll(async () => {
    fs.mkdirSync(path.join(root, 'assets'));
    fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>home</title>');
    fs.writeFileSync(path.join(root, 'dashboard.html'), '<!doctype html><title>dashboard</title>');
    fs.writeFileSync(path.join(root, 'widget-preview.html'), '<!doctype html><title>preview</title>');
    fs.writeFileSync(path.join(root, 'assets', 'dashboard-abc123.js'), 'console.log(1)');
    app = await appWith(root);
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('answers every dashboard path with the app, revalidated, under a strict CSP', async () => {
    for (const url of ['/dashboard', '/dashboard/', '/dashboard/create', '/dashboard/kb/kb_x/usage', '/dashboard/anything/else']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('<title>dashboard</title>');
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toBe(pageCsp);
      expect(response.headers['x-frame-options']).toBe('DENY');
    }
    expect(pageCsp).toContain("script-src 'self'");
    expect(pageCsp).toContain("style-src 'self'");
    expect(pageCsp).toContain("frame-ancestors 'none'");
    expect(pageCsp).not.toContain('unsafe');
  });

  it('serves the home page at / and the preview framable by our own pages only', async () => {
    const home = await app.inject({ url: '/' });
    expect(home.body).toContain('<title>home</title>');
    expect(home.headers['content-security-policy']).toBe(pageCsp);
    const preview = await app.inject({ url: '/dashboard/widget-preview' });
    expect(preview.body).toContain('<title>preview</title>');
    expect(preview.headers['content-security-policy']).toBe(previewCsp);
    expect(previewCsp).toContain("frame-ancestors 'self'");
    expect(preview.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('caches hashed assets for a year and 404s unknown ones', async () => {
    const asset = await app.inject({ url: '/web/assets/dashboard-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect((await app.inject({ url: '/web/assets/missing-000.js' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/web/assets/../index.html' })).statusCode).not.toBe(200);
  });

  it('says how to build when the pages are missing', async () => {
    const empty = await appWith(path.join(root, 'nowhere'));
    const response = await empty.inject({ url: '/dashboard' });
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain('npm run build:web');
    await empty.close();
  });

  it('serves the dashboard stylesheet at the stable /web/pages.css for the server-rendered pages, or a fallback', async () => {
    const withCss = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-web-css-'));
    fs.mkdirSync(path.join(withCss, 'assets'));
    fs.writeFileSync(path.join(withCss, 'dashboard.html'), '<link rel="stylesheet" crossorigin href="/web/assets/styles-Ab12_-.css">');
    fs.writeFileSync(path.join(withCss, 'assets', 'styles-Ab12_-.css'), ':root{--accent:#2454d6}');
    const built = await appWith(withCss);
    const css = await built.inject({ url: '/web/pages.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.body).toBe(':root{--accent:#2454d6}');
    await built.close();
    fs.rmSync(withCss, { recursive: true, force: true });

    const empty = await appWith(path.join(root, 'nowhere'));
    const fallback = await empty.inject({ url: '/web/pages.css' });
    expect(fallback.statusCode).toBe(200);
    expect(fallback.headers['content-type']).toMatch(/^text\/css/);
    expect(fallback.body).toBe(fallbackPageCss);
    await empty.close();
  });
});
