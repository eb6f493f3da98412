/**
 * The Knowledge tab's "Import from a website" form in Chromium: a sitemap of a loopback site is
 * imported (per-page statuses, the summary, the sources list showing each page's URL), and a
 * refused URL shows the problem's detail; axe finds no serious violation. No request of the page leaves the server's origin (the
 * site is fetched by the server, not the browser), and the page logs no error.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, describeIf } from '../support/requirements.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';
import { buildWeb, guardRequests, launchChromium, screenshot } from './support.js';

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="/">Home</a></nav><main>${body}</main><footer>Copyright</footer></body></html>`;

describeIf(chromium, 'importing a website from the dashboard', () => {
  let server: TestServer;
  let site: http.Server;
  let origin = '';
  let browser: Browser;
  let context: BrowserContext;
  let tab: Page;
  let offOrigin: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    await buildWeb();
    site = http.createServer((req, res) => {
      const routes: Record<string, [string, string]> = {
        '/robots.txt': ['text/plain', 'User-agent: *\nDisallow: /staff\n'],
        '/sitemap.xml': [
          'application/xml',
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/hours</loc></url><url><loc>${origin}/staff</loc></url><url><loc>${origin}/gone</loc></url></urlset>`,
        ],
        '/hours': ['text/html', page('Opening hours', '<h1>Opening hours</h1><p>We are open from nine to five, Monday to Friday.</p>')],
      };
      const route = routes[req.url ?? ''];
      if (!route) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': route[0] }).end(route[1]);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    server = await startServer();
    browser = await launchChromium();
    context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    offOrigin = guardRequests(context, () => [server.baseUrl]);
    tab = await context.newPage();
    tab.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    tab.on('console', (message) => {
      if (message.type() === 'error' && !/^Failed to load resource/.test(message.text())) errors.push(`console: ${message.text()}`);
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise((resolve) => site?.close(resolve));
  });

  // A browser, a sign-in, a crawl of the local site and the dashboard's polling: like the other journeys, 90 s on a busy machine.
  it('imports a sitemap and shows each page’s outcome, then a refusal’s reason', { timeout: 90_000 }, async () => {
    // Signed in through the API; the session cookie is handed to the browser.
    const client = await signedInClient(server.baseUrl);
    const created = await client.post<{ ragId: string }>('/api/v1/knowledge-bases', { botName: 'Web importer' });
    const cookies = client.cookie.split('; ').map((pair) => {
      const [name = '', ...value] = pair.split('=');
      return { name, value: value.join('='), url: server.baseUrl };
    });
    await context.addCookies(cookies);
    await tab.goto(`/dashboard/kb/${created.body.ragId}/knowledge`);
    await tab.getByRole('heading', { name: 'Import from a website' }).waitFor();

    await tab.getByLabel('Page or sitemap URL').fill(`${origin}/sitemap.xml`);
    await tab.getByRole('button', { name: 'Import', exact: true }).click();
    await tab.getByTestId('import-summary').waitFor();
    expect(await tab.getByTestId('import-summary').textContent()).toBe('3 pages: 1 added, 0 updated, 0 unchanged, 1 skipped, 1 failed · 1 records added, 0 removed.');
    const items = tab.getByTestId('import-pages').locator('li');
    expect(await items.count()).toBe(3);
    expect(await items.nth(0).textContent()).toContain('Opening hours');
    expect(await items.nth(1).textContent()).toMatch(/robots\.txt disallows it/);
    expect(await items.nth(2).textContent()).toMatch(/answered 404/);
    // The new source lists its URL, and its record is listed.
    await tab.getByTestId('source-url').waitFor();
    expect(await tab.getByTestId('source-url').getAttribute('href')).toBe(`${origin}/hours`);
    await tab.getByText('We are open from nine to five, Monday to Friday.').waitFor();
    await screenshot(tab, 'dashboard-import-desktop');
    const axe = await new AxeBuilder({ page: tab }).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);

    await tab.getByLabel('Page or sitemap URL').fill('ftp://shop.example/sitemap.xml');
    await tab.getByRole('button', { name: 'Import', exact: true }).click();
    await tab.getByTestId('import-result').getByText(/must use https/).waitFor();

    expect(offOrigin).toEqual([]);
    expect(errors).toEqual([]);
  });
});
