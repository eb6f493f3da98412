/**
 * The web pages built by Vite into `dist/web` (vite.config.ts): `/` (home)
 * and the dashboard, a single-page app answering `/dashboard` and every path
 * under it. Hashed assets under `/web/assets/` are cached for a year and served
 * brotli- or gzip-compressed from the `.br` / `.gz` files the build writes next to
 * them (vite.config.ts), never compressed per request; HTML is revalidated on
 * every visit. `/favicon.svg` (also answering `/favicon.ico`) is the site's icon. Pages carry a strict Content-Security-Policy:
 * scripts, styles and connections from our own origin only, no framing
 * (except the widget preview, which the dashboard frames).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import type { App } from '../types.js';

/** `dist/web` of the project, both from `src/http/routes` (tsx, tests) and `dist/http/routes` (built). */
export const defaultWebRoot = fileURLToPath(new URL('../../../dist/web/', import.meta.url));

const baseCsp = [
  "default-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
];

/** The dashboard and home page: nothing inline, nothing from elsewhere, never framed. */
export const pageCsp = [...baseCsp, "style-src 'self'", "frame-src 'self'", "frame-ancestors 'none'"].join('; ');
/**
 * The utilities pages: tools run here, so WebAssembly (OCR) may compile, workers start from our
 * origin, and results are shown from blob: URLs. Still nothing from another origin.
 */
export const toolsCsp = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "connect-src 'self' blob: data:",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "style-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-src 'self' blob:",
  "frame-ancestors 'none'",
].join('; ');
/** The widget preview: framed by the dashboard; the widget may put its styles in its shadow root. */
export const previewCsp = [...baseCsp, "style-src 'self' 'unsafe-inline'", "frame-src 'none'", "frame-ancestors 'self'"].join('; ');

const notBuilt = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Groundwork</title></head>
<body><h1>Groundwork</h1><p>The web pages are not built. Run <code>npm run build:web</code> (or <code>npm run build</code>) and reload.</p>
<p><a href="/docs">API reference</a></p></body></html>`;

/**
 * The stylesheet of the server-rendered pages (claim, OAuth sign-in and
 * consent) when the web build is missing: the same variables, header and
 * form look as the dashboard's, in a few lines. Served, never inlined.
 */
export const fallbackPageCss = `:root{color-scheme:light dark;--bg:#f7f8fa;--surface:#fff;--text:#1f2933;--muted:#52606d;--border:#cbd2d9;--accent:#2454d6;--accent-text:#fff;--danger:#b42318;--focus:#f0b429;font:16px/1.55 system-ui,sans-serif}
@media(prefers-color-scheme:dark){:root{--bg:#111418;--surface:#1a1e24;--text:#e4e7eb;--muted:#a3adb8;--border:#3e4651;--accent:#8fb0ff;--accent-text:#0d1526;--danger:#ff9b8f}}
*{box-sizing:border-box}html,body{margin:0}body{background:var(--bg);color:var(--text)}a{color:var(--accent)}
.skip{position:absolute;left:-999px;top:.5rem;background:var(--surface);padding:.5rem 1rem}.skip:focus{left:.5rem}
.topbar{background:var(--surface);border-bottom:1px solid var(--border)}.topbar-inner{max-width:72rem;margin:0 auto;padding:.6rem 1rem}
.brand{font-weight:700;font-size:1.1rem;color:var(--text);text-decoration:none}
main{max-width:30rem;margin:2rem auto;padding:0 1rem}.card{background:var(--surface);border:1px solid var(--border);border-radius:10px;padding:1.1rem}
h1{font-size:1.5rem}label{display:block;margin:.8rem 0 .3rem;font-weight:600}
input[type=text],input[type=email]{font:inherit;padding:.45rem .6rem;width:100%;border:1px solid var(--border);border-radius:8px;background:var(--surface);color:inherit}
button{font:inherit;padding:.5rem 1.1rem;margin:1rem .6rem 0 0;border-radius:8px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-text);cursor:pointer}
button.secondary{background:transparent;color:var(--accent)}:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.error{color:var(--danger);font-weight:600}.note,.muted{color:var(--muted);font-size:.95rem}
`;

/** The dashboard's built stylesheet (`/web/assets/styles-<hash>.css`), as linked from the built dashboard page. */
async function builtStylesheet(root: string): Promise<string | undefined> {
  try {
    const html = await readFile(path.join(root, 'dashboard.html'), 'utf8');
    const href = /<link rel="stylesheet"[^>]*href="\/web\/assets\/([A-Za-z0-9._-]+\.css)"/.exec(html)?.[1];
    return href ? await readFile(path.join(root, 'assets', href), 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** The site's icon: the brand blue rounded square with a white "G" stroke. */
export const faviconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#2454d6"/><path d="M22 11.5A7 7 0 1 0 23 18h-6" fill="none" stroke="#fff" stroke-width="3.2" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

/** Stable, unhashed URL of the pages' stylesheet (the dashboard's, or the fallback above). */
export const pageStylesheetPath = '/web/pages.css';

export interface WebOptions {
  /** Where the built pages are; defaults to the project's `dist/web`. */
  root?: string;
}

export async function webRoutes(app: App, options: WebOptions = {}): Promise<void> {
  const root = options.root ?? defaultWebRoot;

  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root: path.join(root, 'assets'),
      prefix: '/web/assets/',
      decorateReply: false,
      index: false,
      wildcard: true,
      // Vite names every asset by its content hash: it never changes under the same URL.
      cacheControl: false,
      // `<file>.br` / `<file>.gz` written by the build, sent with Content-Encoding when accepted.
      preCompressed: true,
      setHeaders: (res) => {
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        res.setHeader('vary', 'Accept-Encoding');
      },
      schemaHide: true,
    });
  });

  async function sendPage(reply: FastifyReply, file: string, csp: string, framing: 'DENY' | 'SAMEORIGIN'): Promise<FastifyReply> {
    let html: string;
    try {
      html = await readFile(path.join(root, file), 'utf8');
    } catch {
      return reply.code(503).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(notBuilt);
    }
    return reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', csp)
      .header('x-frame-options', framing)
      .header('cross-origin-opener-policy', 'same-origin')
      .type('text/html; charset=utf-8')
      .send(html);
  }

  const hide = { schema: { hide: true } };
  for (const url of ['/favicon.svg', '/favicon.ico']) {
    app.get(url, hide, async (_request, reply) =>
      reply
        .header('cache-control', 'public, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        .type('image/svg+xml')
        .send(faviconSvg),
    );
  }
  // The server-rendered pages (src/http/page.ts) link this stable URL to share the dashboard's look.
  app.get(pageStylesheetPath, hide, async (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .type('text/css; charset=utf-8')
      .send((await builtStylesheet(root)) ?? fallbackPageCss),
  );
  app.get('/', hide, async (_request, reply) => sendPage(reply, 'index.html', pageCsp, 'DENY'));
  app.get('/dashboard/widget-preview', hide, async (_request, reply) => sendPage(reply, 'widget-preview.html', previewCsp, 'SAMEORIGIN'));
  // The single-page app routes itself: /dashboard, /dashboard/create, /dashboard/kb/{ragId}/{tab}.
  app.get('/tools', hide, async (_request, reply) => sendPage(reply, 'tools.html', toolsCsp, 'DENY'));
  app.get('/tools/:id', hide, async (_request, reply) => sendPage(reply, 'tools.html', toolsCsp, 'DENY'));
  app.get('/dashboard', hide, async (_request, reply) => sendPage(reply, 'dashboard.html', pageCsp, 'DENY'));
  app.get('/dashboard/*', hide, async (_request, reply) => sendPage(reply, 'dashboard.html', pageCsp, 'DENY'));
}
