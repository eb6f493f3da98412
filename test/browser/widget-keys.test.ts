/**
 * The Widget tab never hands out a dead key (issue 13, docs/widget-keys.md), in Debian's Chromium:
 * the snippet and the live preview use a live publishable key read from the server each time the
 * tab opens; the choice is remembered per knowledge base (its id only) across reloads; a key
 * revoked in the API Keys tab is gone from the Widget tab at once and its remembered id forgotten;
 * with no publishable key the in-place form makes exactly one key, even on a double click, with
 * the server's domain rules checked first; and a key whose whitelist leaves out the dashboard's
 * host gets an explanation instead of a refused preview.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createKb, faqMarkdown, uploadFile } from '../query/helpers.js';
import { chromium, describeIf } from '../support/requirements.js';
import { type Client, signedInClient, startServer, type TestServer } from '../support/server.js';
import { buildWeb, launchChromium, screenshot } from './support.js';

interface Key {
  keyId: string;
  prefix: string;
  allowedDomains: string[];
  publishable: boolean;
  apiKey?: string;
}

describeIf(chromium, 'Widget tab keys in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let client: Client;
  const pageErrors: string[] = [];

  const keysPath = (ragId: string) => `/api/v1/knowledge-bases/${ragId}/keys`;
  const listKeys = async (ragId: string) => (await client.get<{ items: Key[] }>(keysPath(ragId))).body.items;
  async function publishableKey(ragId: string, allowedDomains: string[]): Promise<{ keyId: string; apiKey: string }> {
    const created = await client.post<{ key: Key; apiKey: string }>(keysPath(ragId), { name: 'Website widget', allowedDomains, publishable: true });
    expect(created.status).toBe(201);
    return { keyId: created.body.key.keyId, apiKey: created.body.apiKey };
  }

  function watch(p: Page): Page {
    p.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
    p.on('console', (message) => {
      if (message.type() === 'error' && !/^Failed to load resource/.test(message.text())) pageErrors.push(`console: ${message.text()}`);
    });
    return p;
  }

  /** Opens the Widget tab and waits until it has read the keys and rendered the snippet. */
  async function openWidgetTab(p: Page, ragId: string): Promise<void> {
    await p.goto(`/dashboard/kb/${ragId}/widget`);
    await p.locator('.tabs a[aria-current="page"][href$="/widget"]').waitFor();
    await p.getByRole('heading', { name: 'Key for the widget' }).waitFor();
  }
  const snippetKey = async (p: Page) => /data-api-key="([^"]*)"/.exec(await p.getByLabel('Embed code').inputValue())?.[1];

  beforeAll(async () => {
    await Promise.all([buildWeb(), build({ configFile: 'vite.widget.config.ts', logLevel: 'warn' })]);
    let launched: Browser | undefined;
    [server, launched] = await Promise.all([startServer({ MAX_KNOWLEDGE_BASES: '10' }), launchChromium()]);
    browser = launched;
    expect(new URL(server.baseUrl).hostname).toBe('127.0.0.1');
    client = await signedInClient(server.baseUrl);
    context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    await context.addCookies(
      client.cookie.split('; ').map((pair) => {
        const at = pair.indexOf('=');
        return { name: pair.slice(0, at), value: pair.slice(at + 1), url: server.baseUrl };
      }),
    );
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
  });

  it('uses a live publishable key in the snippet and the preview, remembers the choice, and drops a revoked key everywhere', { timeout: 90_000 }, async () => {
    const ragId = await createKb(client, 'Key helper');
    await uploadFile(client, ragId, 'faq.md', faqMarkdown);
    const older = await publishableKey(ragId, ['127.0.0.1', 'shop.example', '*.shop.example']);
    const newer = await publishableKey(ragId, ['127.0.0.1', 'other.example']);
    const page = watch(await context.newPage());

    // Both live: the newest is the default; choosing the older one is remembered across a reload.
    await openWidgetTab(page, ragId);
    expect(await snippetKey(page)).toBe(newer.apiKey);
    await page.getByRole('radio', { name: /other\.example/ }).waitFor();
    await page.getByRole('radio', { name: /shop\.example/ }).check();
    expect(await snippetKey(page)).toBe(older.apiKey);
    expect(await page.getByTestId('widget-where').textContent()).toBe(
      'This snippet works on pages at shop.example and *.shop.example. It also works here (127.0.0.1), for the preview.',
    );
    await page.reload();
    await page.getByRole('heading', { name: 'Key for the widget' }).waitFor();
    expect(await snippetKey(page)).toBe(older.apiKey);
    expect(await page.getByRole('radio', { name: /shop\.example/ }).isChecked()).toBe(true);

    // Revoke the remembered key in the API Keys tab; the Widget tab never shows it again.
    await page.getByRole('link', { name: 'API Keys', exact: true }).click();
    const keys = page.getByTestId('keys');
    await keys.locator('li').nth(1).waitFor();
    expect(await keys.getByText('Widget key (publishable)').count()).toBe(2);
    await keys.locator('li', { hasText: older.apiKey.slice(0, 12) }).getByRole('button', { name: /^Revoke/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => keys.locator('li').count()).toBe(1);
    expect((await listKeys(ragId)).map((k) => k.keyId)).toEqual([newer.keyId]);

    await page.getByRole('link', { name: 'Widget', exact: true }).click();
    await page.getByRole('heading', { name: 'Key for the widget' }).waitFor();
    await expect.poll(() => snippetKey(page)).toBe(newer.apiKey);
    expect(await page.content()).not.toContain(older.apiKey);
    expect(await page.evaluate(`localStorage.getItem('gw-widget-key:${ragId}')`)).toBeNull();

    // The preview runs the widget with the live key and answers.
    const preview = page.frameLocator('iframe.preview');
    expect(await page.locator('iframe.preview').getAttribute('src')).toContain(`key=${newer.apiKey}`);
    await preview.locator('groundwork-chat textarea').fill('Where do orders ship from?');
    await preview.locator('groundwork-chat textarea').press('Enter');
    const answer = preview.locator('groundwork-chat .g .m:not(.u)').last();
    await answer.locator('button.c').first().waitFor({ timeout: 20_000 });
    expect(await answer.innerText()).toMatch(/Bremen/);
    // The citation shows the record's title (its section heading).
    expect(await answer.locator('summary').first().innerText()).toBe('[1] Shipping');
    await screenshot(page, 'widget-tab-live-key');

    // A reload still shows the live key, never the revoked one.
    await page.reload();
    await page.getByRole('heading', { name: 'Key for the widget' }).waitFor();
    expect(await snippetKey(page)).toBe(newer.apiKey);
    expect(await page.content()).not.toContain(older.apiKey);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('with no publishable key, the in-place form checks the domains and makes exactly one key on a double click', async () => {
    const ragId = await createKb(client, 'Fresh helper');
    await uploadFile(client, ragId, 'faq.md', faqMarkdown);
    const page = watch(await context.newPage());
    await openWidgetTab(page, ragId);
    expect(await snippetKey(page)).toBe('YOUR_API_KEY');
    const create = page.getByRole('button', { name: 'Create the widget key' });
    const domain = page.getByLabel("Your website's domain");

    // The server's rules, before any request: a public-suffix wildcard, or no website at all.
    await domain.fill('*.co.uk');
    await create.click();
    await page.getByRole('alert').getByText(/co\.uk is a public suffix/).waitFor();
    await domain.fill('127.0.0.1');
    await create.click();
    await page.getByRole('alert').getByText(/Name your website's domain/).waitFor();
    expect(await listKeys(ragId)).toEqual([]);

    await domain.fill('https://Shop.Example/');
    await create.dblclick();
    await page.getByRole('radio', { name: /shop\.example/ }).waitFor();
    const keys = await listKeys(ragId);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ publishable: true, allowedDomains: ['shop.example', '127.0.0.1'] });
    expect(await snippetKey(page)).toBe(keys[0]?.apiKey);
    // The form is gone; another key only on request.
    expect(await create.count()).toBe(0);
    await page.getByRole('button', { name: 'Create another key' }).waitFor();
    await page.locator('iframe.preview').waitFor();
    expect((await listKeys(ragId)).length).toBe(1);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("explains that the preview cannot run here when the key's whitelist leaves out the dashboard", async () => {
    const ragId = await createKb(client, 'Remote helper');
    const { apiKey } = await publishableKey(ragId, ['shop.example']);
    const page = watch(await context.newPage());
    await openWidgetTab(page, ragId);
    expect(await snippetKey(page)).toBe(apiKey);
    await page.getByText(/The preview cannot run here: this key's whitelist does not include 127\.0\.0\.1/).waitFor();
    expect(await page.locator('iframe.preview').count()).toBe(0);
    expect(await page.getByTestId('widget-where').textContent()).toBe('This snippet works on pages at shop.example.');
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
