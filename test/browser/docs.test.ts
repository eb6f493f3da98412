/**
 * The API reference (`/docs`, Swagger UI) in Debian's Chromium: themed like the site (its font and
 * accent colour, the site's icon), links back to the site, and passes axe with no critical
 * violations (image-alt, label, select-name) — also after an operation is opened for "Try it out".
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, describeIf } from '../support/requirements.js';
import { startServer, type TestServer } from '../support/server.js';
import { launchChromium } from './support.js';

describeIf(chromium, 'the API reference in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  async function critical(label: string): Promise<void> {
    const results = await new AxeBuilder({ page }).analyze();
    const bad = results.violations.filter((v) => v.impact === 'critical');
    expect(
      bad.map((v) => `${label}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `axe on ${label}`,
    ).toEqual([]);
  }

  beforeAll(async () => {
    server = await startServer();
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await page.goto(`${server.baseUrl}/docs`);
    await page.locator('.opblock').first().waitFor();
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
  });

  it('is themed like the site and links back to it', async () => {
    await expect(page.title()).resolves.toBe('API reference · Groundwork');
    const back = page.locator('a.gw-back');
    await expect(back.getAttribute('href')).resolves.toBe('/');
    const font = await page.locator('body').evaluate((body) => body.ownerDocument.defaultView?.getComputedStyle(body).fontFamily ?? '');
    expect(font).toMatch(/system-ui/);
    const logo = page.locator('.topbar img');
    await expect(logo.getAttribute('alt')).resolves.toBe('Groundwork API reference');
    await expect(page.locator('link[rel=icon]').first().getAttribute('href')).resolves.toMatch(/favicon\.svg$/);
  });

  // Two axe runs over Swagger UI's page take some 16 s on an idle 2-core machine: a margin for a busy one.
  it('has no critical axe violations, listing operations or trying one out', { timeout: 240_000 }, async () => {
    await critical('/docs');
    // Open an operation with parameters and start "Try it out": inputs and selects appear.
    const operation = page.locator('.opblock', { hasText: '/api/v1/widget/config' }).first();
    await operation.locator('.opblock-summary').first().click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.locator('input, select').first().waitFor();
    await critical('/docs, trying out an operation');
  });
});
