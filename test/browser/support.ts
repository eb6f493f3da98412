/**
 * Shared by the browser suites (widget, dashboard): Debian's Chromium driven
 * by playwright-core (never a downloaded browser), a tiny static site server
 * for host pages, a guard that records requests leaving the expected
 * origins, and screenshots under test-results/screenshots/ (gitignored).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium as playwright, type Page } from 'playwright-core';
import { chromiumPath } from '../support/requirements.js';
import { codeFromOutbox } from '../support/server.js';

export const chromiumArgs = ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** One browser per test file; pass extra switches such as `--host-resolver-rules=…` if needed. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return playwright.launch({ executablePath: chromiumPath, args: [...chromiumArgs, ...extraArgs] });
}

export const screenshotDir = path.resolve('test-results/screenshots');

/** Saves a PNG of the page (or of a clip of it) as test-results/screenshots/<name>.png and returns the path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file, animations: 'disabled' });
  return file;
}

/**
 * Records every request of the context whose origin is not in `allowed()`
 * (data: and blob: URLs excepted). Assert the returned list is empty.
 */
export function guardRequests(context: BrowserContext, allowed: () => string[]): string[] {
  const strays: string[] = [];
  context.on('request', (request) => {
    const url = request.url();
    if (/^(data|blob|about):/.test(url)) return;
    let origin = '';
    try {
      origin = new URL(url).origin;
    } catch {
      // unparsable: a stray
    }
    if (!allowed().includes(origin)) strays.push(`${request.method()} ${url}`);
  });
  return strays;
}

export interface StaticSite {
  port: number;
  close(): Promise<void>;
}

/** Serves `pages()` (path → HTML, read per request) on a loopback address. Unknown paths are 404. */
export async function serveStatic(pages: () => Record<string, string>, host = '127.0.0.1'): Promise<StaticSite> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const body = pages()[(req.url ?? '/').split('?')[0] ?? '/'];
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const projectRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

/**
 * Builds the web pages into dist/web exactly as `npm run build:web` does, unless
 * they are already newer than their sources. Suites run in parallel and Vite
 * empties dist/web first, so builds take a lock (a directory) and a fresh build
 * is never redone under another suite's running server.
 */
export async function buildWeb(): Promise<void> {
  const lock = path.join(projectRoot, 'dist', '.web-build.lock');
  const built = path.join(projectRoot, 'dist', 'web', 'dashboard.html');
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (let waited = 0; ; waited += 100) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // A stale lock (a crashed run) is taken over after two minutes.
      if (waited > 120_000) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    const sources = Math.max(
      newestMtime(path.join(projectRoot, 'src', 'web')),
      newestMtime(path.join(projectRoot, 'src', 'tools')),
      newestMtime(path.join(projectRoot, 'vite.config.ts')),
    );
    if (fs.existsSync(built) && fs.statSync(built).mtimeMs > sources) return;
    const { build } = await import('vite');
    await build({ configFile: path.join(projectRoot, 'vite.config.ts'), logLevel: 'error' });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** A page expression run against the widget's shadow root (undefined until the widget has mounted). */
export const inShadow = (expression: string) => `(() => { const root = document.querySelector('groundwork-chat')?.shadowRoot; return root ? (${expression}) : undefined; })()`;

/** Signs in through the dashboard's form with the code from the development outbox; ends on the knowledge-base list. */
export async function signInThroughDashboard(page: Page, baseUrl: string, email: string): Promise<void> {
  await page.goto('/dashboard');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'E-mail me a code' }).click();
  await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
  await page.getByLabel('Code').fill(await codeFromOutbox(baseUrl, email));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Your knowledge bases' }).waitFor();
}
