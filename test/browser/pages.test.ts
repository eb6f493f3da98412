/**
 * The server-rendered pages (the claim page of an agent account and the
 * OAuth sign-in page) in Debian's Chromium: they link the dashboard's own
 * built stylesheet through the stable `/web/pages.css`, carry its header,
 * follow light and dark mode, stay within a phone's width, pass axe (no
 * serious or critical violations) under their strict CSP (no inline styles),
 * and are saved as screenshots at desktop and phone sizes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import * as oauth from 'oauth4webapi';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { discover, idpKey, insecure, postJson, startOAuthServer } from '../oauth/helpers.js';
import { chromium, describeIf } from '../support/requirements.js';
import type { TestServer } from '../support/server.js';
import { buildWeb, guardRequests, launchChromium, screenshot } from './support.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const viewports = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

describeIf(chromium, 'claim and OAuth pages in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext | undefined;
  let strays: string[] = [];
  let problems: string[] = [];
  let claimUrl = '';
  let authorizeUrl = '';

  async function open(url: string, viewport: { width: number; height: number }, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
    context = await browser.newContext({ viewport, colorScheme, reducedMotion: 'reduce' });
    strays = guardRequests(context, () => [server.baseUrl]);
    const p = await context.newPage();
    p.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    p.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    const response = await p.goto(url);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/style-src 'self'/);
    expect(response?.headers()['content-security-policy']).not.toMatch(/unsafe-inline/);
    return p;
  }

  /** Values only the dashboard's stylesheet gives (the fallback has no --surface-2). */
  const look = (p: Page) =>
    p.evaluate(`(() => {
      const root = getComputedStyle(document.documentElement);
      const body = getComputedStyle(document.body);
      const button = document.querySelector('button[type=submit], button');
      return {
        accent: root.getPropertyValue('--accent').trim(),
        surface2: root.getPropertyValue('--surface-2').trim(),
        font: root.getPropertyValue('font-family'),
        background: body.backgroundColor,
        topbar: getComputedStyle(document.querySelector('.topbar')).borderBottomStyle,
        brand: document.querySelector('.topbar .brand').textContent,
        button: button ? getComputedStyle(button).backgroundColor : '',
        overflow: document.documentElement.scrollWidth > document.documentElement.clientWidth,
        inlineStyles: document.querySelectorAll('style, [style]').length,
      };
    })()`) as Promise<Record<string, string | number | boolean>>;

  async function axe(p: Page, label: string): Promise<void> {
    const results = await new AxeBuilder({ page: p }).analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${label}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }

  beforeAll(async () => {
    // The stylesheet comes from the web build (`npm run build:web`).
    await buildWeb();
    server = await startOAuthServer(await idpKey());
    browser = await launchChromium();

    const registered = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous' });
    expect(registered.status).toBe(201);
    claimUrl = (registered.body as { claim_uri: string }).claim_uri;
    expect(new URL(claimUrl).pathname).toBe('/claim');

    const as = await discover(server.baseUrl);
    const client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], client_name: 'Pages test' },
        insecure,
      ),
    );
    const url = new URL(as.authorization_endpoint as string);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: 'http://127.0.0.1:49152/callback',
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: 'S256',
      state: oauth.generateRandomState(),
    }).toString();
    authorizeUrl = url.toString();
  }, 120_000);

  afterEach(async () => {
    await context?.close();
    context = undefined;
    expect(strays, 'requests that left the server origin').toEqual([]);
    expect(problems, 'page errors (a CSP refusal included)').toEqual([]);
    problems = [];
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('serves the dashboard stylesheet at the stable /web/pages.css', async () => {
    const html = fs.readFileSync(path.join(root, 'dist/web/dashboard.html'), 'utf8');
    const hashed = /href="(\/web\/assets\/[^"]+\.css)"/.exec(html)?.[1] ?? '';
    expect(hashed).not.toBe('');
    const [stable, built] = await Promise.all([fetch(`${server.baseUrl}/web/pages.css`), fetch(`${server.baseUrl}${hashed}`)]);
    expect(stable.status).toBe(200);
    expect(stable.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await stable.text()).toBe(await built.text());
  });

  for (const [name, url] of [
    ['claim', () => claimUrl],
    ['oauth-sign-in', () => authorizeUrl],
  ] as const) {
    it(`${name} page: the dashboard's look in light and dark, on desktop and phone; axe finds nothing serious`, async () => {
      const light = await open(url(), viewports.desktop);
      const lightLook = await look(light);
      expect(lightLook).toMatchObject({
        accent: '#2454d6',
        surface2: '#f0f2f5',
        background: 'rgb(247, 248, 250)',
        topbar: 'solid',
        brand: 'Groundwork',
        button: 'rgb(36, 84, 214)',
        overflow: false,
        inlineStyles: 0,
      });
      expect(lightLook.font).toMatch(/system-ui/);
      expect(await light.getByRole('heading', { level: 1 }).count()).toBe(1);
      await axe(light, `${name} light`);
      await screenshot(light, `page-${name}-desktop`);
      await context?.close();

      const dark = await open(url(), viewports.phone, 'dark');
      expect(await look(dark)).toMatchObject({ accent: '#8fb0ff', background: 'rgb(17, 20, 24)', overflow: false, inlineStyles: 0 });
      await axe(dark, `${name} dark`);
      await screenshot(dark, `page-${name}-phone-dark`);
      await dark.emulateMedia({ colorScheme: 'light' });
      await screenshot(dark, `page-${name}-phone`);
    });
  }
});
