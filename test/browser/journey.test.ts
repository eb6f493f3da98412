/**
 * The whole first-run journey in one browser session (Debian's Chromium
 * through playwright-core): sign in to the dashboard with the code from the
 * outbox, create a knowledge base, upload a file through the Knowledge tab
 * and watch the progress bar and the report, generate a key whitelisting
 * `localhost` and read it from the page, then open a host page on another
 * loopback origin (`localhost`) that embeds the widget with that key, ask a
 * question and see the streamed answer with a citation that reveals its
 * passage; the same page on `127.0.0.2` (not whitelisted) shows a clear
 * refusal. Fails if any request leaves the loopback origins of the test.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, describeIf } from '../support/requirements.js';
import { startServer, type TestServer } from '../support/server.js';
import { buildWeb, guardRequests, launchChromium, screenshot, serveStatic, type StaticSite, inShadow, signInThroughDashboard } from './support.js';

const faq = `# Shipping

Q: How long does delivery take?
A: Three to five working days within the EU.

# Returns

You can return any unused item within 30 days for a full refund.
`;

describeIf(chromium, 'first-run journey in Chromium: dashboard to widget', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let site: StaticSite;
  let elsewhere: StaticSite;
  let strays: string[] = [];
  const pageErrors: string[] = [];
  const pages: Record<string, string> = {};

  const allowedOrigins = () => [server.baseUrl, `http://localhost:${site.port}`, `http://127.0.0.2:${elsewhere.port}`];

  function watch(p: Page): Page {
    p.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
    p.on('response', (response) => {
      if (response.status() >= 500) pageErrors.push(`HTTP ${response.status()} ${response.url()}`);
    });
    return p;
  }

  beforeAll(async () => {
    await Promise.all([buildWeb(), build({ configFile: 'vite.widget.config.ts', logLevel: 'warn' })]);
    let launched: Browser | undefined;
    [server, launched, site, elsewhere] = await Promise.all([startServer(), launchChromium(), serveStatic(() => pages), serveStatic(() => pages, '127.0.0.2')]);
    browser = launched;
    expect(new URL(server.baseUrl).hostname).toBe('127.0.0.1');
    context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    strays = guardRequests(context, allowedOrigins);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await Promise.all([site?.close(), elsewhere?.close()]);
    await server?.stop();
  });

  it('sign in, create, upload, key, then the widget answers on the whitelisted origin and refuses elsewhere', { timeout: 90_000 }, async () => {
    const dashboard = watch(await context.newPage());

    // Sign in with the code from the outbox.
    const email = 'journey@example.test';
    await signInThroughDashboard(dashboard, server.baseUrl, email);

    // Create a knowledge base.
    await dashboard.getByRole('link', { name: 'Create your first knowledge base' }).click();
    await dashboard.getByLabel('Bot name').fill('Journey helper');
    await dashboard.getByRole('button', { name: 'Create and add knowledge' }).click();
    await dashboard.waitForURL(/\/dashboard\/kb\/[^/]+\/knowledge$/);
    const ragId = /\/kb\/([^/]+)\//.exec(dashboard.url())?.[1] ?? '';
    expect(ragId).toMatch(/^kb_/);

    // Upload through the Knowledge tab: the bar reaches 100 % and the report shows.
    await dashboard.locator('#file-input').setInputFiles({ name: 'faq.md', mimeType: 'text/markdown', buffer: Buffer.from(faq) });
    await dashboard.getByText('Uploaded faq.md').waitFor();
    expect(await dashboard.locator('.upload progress').evaluate((el) => (el as unknown as { value: number }).value)).toBe(100);
    await dashboard.getByRole('heading', { name: 'Report: faq.md' }).waitFor();
    await expect.poll(() => dashboard.getByTestId('report-added').textContent()).toBe('2');
    await screenshot(dashboard, 'journey-upload-report');

    // A key whitelisting localhost, read in full from the page.
    await dashboard.getByRole('link', { name: 'API Keys' }).click();
    await dashboard.getByLabel('Allowed domains').fill('localhost');
    await dashboard.getByRole('button', { name: 'Generate key' }).click();
    await dashboard.getByTestId('new-key').waitFor();
    const apiKey = await dashboard.getByTestId('new-key').inputValue();
    expect(apiKey).toMatch(/^gw_live_[A-Za-z0-9]{32}$/);

    // The host page embeds the one-line snippet; the service is another origin.
    pages['/'] = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Journey shop</title></head>
<body><main><h1>Journey shop</h1><p>Welcome.</p></main>
<script src="${server.baseUrl}/widget.js" data-rag-id="${ragId}" data-api-key="${apiKey}" async></script></body></html>`;

    const host = watch(await context.newPage());
    await host.goto(`http://localhost:${site.port}/`);
    await host.waitForFunction(inShadow("root.querySelector('.l') !== null"));
    await host.getByRole('button', { name: 'Open chat' }).click();
    await host.waitForFunction(inShadow("root.querySelector('h2').textContent === 'Journey helper'"));
    const streamed = host.waitForResponse((r) => r.url() === `${server.baseUrl}/api/v1/query/stream` && r.request().method() === 'POST');
    await host.locator('groundwork-chat textarea').fill('How long does delivery take?');
    await host.keyboard.press('Enter');
    const response = await streamed;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^text\/event-stream/);
    const answer = host.locator('groundwork-chat .g .m:not(.u)').last();
    const cite = answer.locator('button.c').first();
    await cite.waitFor();
    expect(await answer.innerText()).toMatch(/working days/);
    const passage = answer.locator('details p').first();
    expect(await passage.isVisible()).toBe(false);
    await cite.click();
    expect(await passage.isVisible()).toBe(true);
    expect(await passage.innerText()).toContain('Three to five working days');
    // A citation shows the record's title (here the FAQ question), not the file name.
    expect(await answer.locator('summary').first().innerText()).toBe('[1] How long does delivery take?');
    await screenshot(host, 'journey-widget-answer');

    // The same page on an origin that is not whitelisted: no chat at all, and one console warning
    // that tells the site's owner which host to add to the key's whitelist.
    const refused = watch(await context.newPage());
    const warnings: string[] = [];
    refused.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await refused.goto(`http://127.0.0.2:${elsewhere.port}/`);
    await expect.poll(() => warnings.length).toBe(1);
    expect(warnings[0]).toContain('Add 127.0.0.2 to the whitelist of this key');
    expect(await refused.locator('groundwork-chat').count()).toBe(0);
    await screenshot(refused, 'journey-widget-refused');

    expect(strays, 'requests that left the test origins').toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
