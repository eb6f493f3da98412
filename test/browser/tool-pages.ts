/**
 * Shared by the utility page suites: one server and one Chromium context per file, a guard on
 * every request of the context (anything not on the site's origin is a stray), and the wait for a
 * tool run to end.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { buildWeb, guardRequests, launchChromium } from './support.js';

export interface ToolPages {
  /** Opens `/tools…` in a new tab; page errors are collected in `problems`. */
  open(path: string): Promise<Page>;
  /** Requests that left the site's origin. */
  strays: string[];
  problems: string[];
}

/** Registers the suite's beforeAll/afterAll and returns the handle its tests use. */
export function toolPages(): ToolPages {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  const handle: ToolPages = {
    strays: [],
    problems: [],
    async open(path) {
      const page = await context.newPage();
      page.on('pageerror', (error) => handle.problems.push(`${path}: ${error.message}`));
      const response = await page.goto(`${server.baseUrl}${path}`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
      return page;
    },
  };
  beforeAll(async () => {
    await buildWeb();
    server = await startServer();
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    handle.strays = guardRequests(context, () => [server.baseUrl]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return handle;
}

/** Presses Run and waits for the output's `data-state` to say the run ended; returns that state. */
export async function runTool(page: Page): Promise<string | null> {
  await page.click('#run-tool');
  // A locator, not waitForFunction: evaluating a string would need 'unsafe-eval', which the pages' CSP refuses.
  await page.locator('#tool-output[data-state="done"], #tool-output[data-state="error"]').waitFor({ timeout: 90_000 });
  return page.locator('#tool-output').getAttribute('data-state');
}
