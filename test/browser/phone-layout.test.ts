/**
 * Phone layouts fit a 390 px screen without horizontal scrolling (issue 13, item 7): in Chromium at
 * 390×844, every dashboard page and tab (with a knowledge base that has sources, records and a key,
 * so its tables and lists have rows), the chat widget open in both corners of a host page, and every
 * utility page. The check is `document.documentElement.scrollWidth <= window.innerWidth`, with no
 * tolerance; failures name the page and its scrollWidth. One browser, one context, one reused tab.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { toolCatalogue } from '../../src/tools/registry.js';
import { createKb, createKey, faqJson, faqMarkdown, uploadFile } from '../query/helpers.js';
import { chromium, describeIf } from '../support/requirements.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';
import { buildWeb, launchChromium, serveStatic, type StaticSite } from './support.js';

const phone = { width: 390, height: 844 };
const tabs = ['knowledge', 'keys', 'widget', 'playground', 'usage'] as const;

/**
 * Pages still wider than the screen, by label. Empty: everything fits. The test asserts that the set
 * of overflowing pages is exactly this list, so it fails both when a new page overflows and when a
 * listed one is fixed (then remove it here).
 */
const knownOverflow: string[] = [];

/** "label: scrollWidth px" when the page scrolls sideways, else null. Plain JS: the pages' CSP allows no eval, but evaluate() is CDP. */
async function overflow(page: Page, label: string): Promise<string | null> {
  // Also names the outermost elements reaching past the right edge, to say where to look.
  const { scrollWidth, innerWidth, culprits } = (await page.evaluate(`(() => {
    const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
    // Content of a scroll container is clipped by it, unless it is positioned out of it (absolute or fixed).
    const clipped = (el) => {
      if (/^(absolute|fixed)$/.test(getComputedStyle(el).position)) return false;
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) if (getComputedStyle(up).overflowX !== 'visible') return true;
      return false;
    };
    const wide = [...document.body.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5 && !clipped(el));
    const outer = wide.filter((el) => !wide.includes(el.parentElement));
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      culprits: outer.slice(0, 3).map((el) => name(el.parentElement) + ' > ' + name(el) + ' (' + Math.round(el.getBoundingClientRect().right) + ' px)'),
    };
  })()`)) as { scrollWidth: number; innerWidth: number; culprits: string[] };
  // innerWidth is the viewport's 390 px here (a desktop context: a mobile one would zoom out to fit wide content).
  return scrollWidth <= innerWidth ? null : `${label}: scrollWidth ${scrollWidth} px > ${innerWidth} px; widest: ${culprits.join(', ')}`;
}

describeIf(chromium, 'phone layouts (390 px) in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let site: StaticSite;
  const hostPages: Record<string, string> = {};
  let ragId = '';
  const failures: { label: string; detail: string }[] = [];
  const problems: string[] = [];

  async function check(label: string): Promise<void> {
    const detail = await overflow(page, label);
    if (detail) failures.push({ label, detail });
  }

  beforeAll(async () => {
    let launched: Browser | undefined;
    [server, launched] = await Promise.all([
      buildWeb().then(() => startServer()),
      launchChromium(),
      build({ configFile: 'vite.widget.config.ts', logLevel: 'warn' }),
    ]);
    browser = launched;
    site = await serveStatic(() => hostPages);

    // A knowledge base with sources, records and a key (so the dashboard's tables and lists have rows).
    const client = await signedInClient(server.baseUrl);
    ragId = await createKb(client, 'A helper with a rather long bot name for a phone');
    await uploadFile(client, ragId, 'frequently-asked-questions-about-shipping-and-returns.md', faqMarkdown);
    await uploadFile(client, ragId, 'faq.json', faqJson);
    const { apiKey } = await createKey(client, ragId, ['localhost', 'shop.example.com'], 'Website widget key');

    const snippet = (extra: string) => `<script src="${server.baseUrl}/widget.js" data-rag-id="${ragId}" data-api-key="${apiKey}"${extra} async></script>`;
    const host = (extra: string) =>
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Host page</title></head><body><main><h1>Shop</h1><p>Our shop.</p></main>${snippet(extra)}</body></html>`;
    hostPages['/right.html'] = host('');
    hostPages['/left.html'] = host(' data-position="bottom-left"');

    context = await browser.newContext({ baseURL: server.baseUrl, viewport: phone, reducedMotion: 'reduce' });
    await context.addCookies(
      client.cookie.split('; ').map((pair) => {
        const at = pair.indexOf('=');
        return { name: pair.slice(0, at), value: pair.slice(at + 1), url: server.baseUrl };
      }),
    );
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await server?.stop();
  });

  it('dashboard pages and every tab fit', async () => {
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Your knowledge bases' }).waitFor();
    await page.locator('.kb-card').first().waitFor();
    await check('dashboard home');
    await page.goto('/dashboard/create');
    await page.getByRole('heading', { name: 'Create a knowledge base' }).waitFor();
    await check('dashboard create');
    for (const tab of tabs) {
      await page.goto(`/dashboard/kb/${ragId}/${tab}`);
      await page.locator(`.tabs a[aria-current="page"][href$="/${tab}"]`).waitFor();
      await page.locator('section.card').first().waitFor();
      if (tab === 'knowledge') await page.getByTestId('records').locator('li').first().waitFor();
      if (tab === 'keys') await page.getByTestId('keys').locator('li').first().waitFor();
      if (tab === 'widget') {
        // The key above is secret: the tab offers to make a widget key in place (the form must fit too).
        await page.getByLabel("Your website's domain").waitFor();
        await check('dashboard widget tab, create form');
        await page.getByLabel("Your website's domain").fill('shop.example.com');
        await page.getByRole('button', { name: 'Create the widget key' }).click();
        await page.getByRole('radio', { name: /shop\.example\.com/ }).waitFor();
        await page.frameLocator('iframe.preview').locator('h1').waitFor();
      }
      if (tab === 'usage') await page.locator('svg.chart').waitFor();
      await check(`dashboard ${tab} tab`);
    }
  });

  it('the widget, open in either corner, fits', async () => {
    for (const corner of ['right', 'left'] as const) {
      await page.goto(`http://localhost:${site.port}/${corner}.html`);
      const launcher = page.locator('groundwork-chat .l');
      await launcher.click();
      await page.locator('groundwork-chat .p textarea').waitFor();
      await check(`widget bottom-${corner}`);
      // The open panel covers the screen edge to edge: no strip of the page beside it.
      const box = await page.locator('groundwork-chat .p').boundingBox();
      expect(box && [box.x, Math.round(box.x + box.width)], `widget panel bottom-${corner}`).toEqual([0, phone.width]);
    }
  });

  it(
    'the catalogue and every utility page fit',
    async () => {
      await page.goto('/tools');
      await page.locator('.tool-card').first().waitFor();
      await check('/tools');
      for (const meta of toolCatalogue) {
        await page.goto(`/tools/${meta.id}`);
        await page.locator('#run-tool').waitFor();
        await check(`/tools/${meta.id}`);
      }
    },
    // About a second per page on a busy machine, twice over.
    20_000 + toolCatalogue.length * 2_000,
  );

  it('overflows exactly the known pages', () => {
    expect(problems).toEqual([]);
    expect(
      failures.map((f) => f.label).sort(),
      `pages wider than ${phone.width} px:\n${failures.map((f) => f.detail).join('\n')}`,
    ).toEqual([...knownOverflow].sort());
  });
});
