/**
 * The embeddable widget in Debian's Chromium: a host page on `localhost`
 * embeds the one-line snippet served by Groundwork on `127.0.0.1`, so the
 * page and the service are different origins as on a real site. Checks the
 * streamed, cited answer and its keyboard use, text-only rendering of hostile
 * answers, isolation from host-page CSS, refusals (whitelist, 429), language,
 * colour scheme and axe; saves screenshots; and fails if any request leaves
 * the loopback origins of the test: the host page (`localhost`), the same
 * page on a non-whitelisted origin (`127.0.0.2`), the service, and a second
 * service whose answers come from a slow fake model (to watch tokens arrive
 * and to abort mid-answer).
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { answerWith, createKb, createKey, type FakeLlm, faqMarkdown, startFakeLlm, uploadFile, within } from '../query/helpers.js';
import { describeIf, chromium } from '../support/requirements.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';
import { guardRequests, launchChromium, screenshot, serveStatic, type StaticSite, inShadow } from './support.js';

const payload = '<img src=x onerror="window.__gwPwned = true">';

const hostileCss = `
*:not(html):not(body):not(groundwork-chat) { all: unset !important; color: red !important; display: none !important; }
html, body { font: italic 700 31px/4 "Comic Sans MS", cursive !important; color: red !important; letter-spacing: 4px !important;
  text-transform: uppercase !important; text-align: right !important; word-spacing: 9px !important; cursor: wait !important; }
groundwork-chat { all: unset !important; transform: rotate(8deg) scale(.5) !important; filter: invert(1) !important; opacity: .3 !important; font-size: 40px !important; }
`;

/** Computed styles and boxes of the widget's parts, as a comparable object. */
const widgetLook = `(() => {
  const root = document.querySelector('groundwork-chat').shadowRoot;
  const props = ['font-family','font-size','font-style','font-weight','line-height','letter-spacing','text-transform','text-align','color','background-color','display','position','opacity','transform','filter','border-radius','cursor'];
  const out = {};
  for (const sel of ['.l', '.p', '.h h2', 'textarea', '.sd', '.g .m']) {
    const el = root.querySelector(sel);
    const cs = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    out[sel] = Object.fromEntries(props.map((p) => [p, cs.getPropertyValue(p)]).concat([['box', [box.x, box.y, box.width, box.height].map(Math.round).join(',')]]));
  }
  return out;
})()`;

describeIf(chromium, 'chat widget in Chromium', () => {
  let server: TestServer;
  /** A second service whose answers come from a slow fake model, to watch tokens arrive and abort mid-answer. */
  let llmServer: TestServer;
  let llm: FakeLlm;
  let browser: Browser;
  let site: StaticSite;
  let elsewhere: StaticSite;
  let context: BrowserContext | undefined;
  let strays: string[] = [];
  const pages: Record<string, string> = {};
  const kb = { ragId: '', apiKey: '' };
  const busy = { ragId: '', apiKey: '' };

  const siteUrl = (path = '/') => `http://localhost:${site.port}${path}`;
  const allowedOrigins = () => [`http://localhost:${site.port}`, `http://127.0.0.2:${elsewhere.port}`, server.baseUrl, llmServer.baseUrl];
  const snippet = (target: { ragId: string; apiKey: string }, extra = '', service = server) =>
    `<script src="${service.baseUrl}/widget.js" data-rag-id="${target.ragId}" data-api-key="${target.apiKey}"${extra} async></script>`;
  const page = (body: string, { lang = 'en', head = '' } = {}) =>
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Host page</title>${head}</head><body><main><h1>Nordlicht Bikes</h1><p>Our shop.</p></main>${body}</body></html>`;

  async function open(url: string, options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
    strays = guardRequests(context, allowedOrigins);
    const p = await context.newPage();
    await p.goto(url);
    await p.waitForFunction(inShadow("root.querySelector('.l') !== null"));
    return p;
  }

  async function ask(p: Page, question: string): Promise<void> {
    await p.locator('groundwork-chat textarea').fill(question);
    await p.keyboard.press('Enter');
  }

  const lastBot = (p: Page) => p.locator('groundwork-chat .g .m:not(.u)').last();

  beforeAll(async () => {
    llm = await startFakeLlm();
    let launched: Browser | undefined;
    [server, llmServer, launched] = await Promise.all([
      startServer(),
      startServer({ LLM_BASE_URL: llm.baseUrl, QUERY_CACHE_TTL_SECONDS: '0' }),
      launchChromium(),
      build({ configFile: 'vite.widget.config.ts', logLevel: 'warn' }),
    ]);
    browser = launched;
    [site, elsewhere] = await Promise.all([serveStatic(() => pages), serveStatic(() => pages, '127.0.0.2')]);

    const alice = await signedInClient(server.baseUrl);
    kb.ragId = await createKb(alice, 'Nordlicht Helper');
    await uploadFile(alice, kb.ragId, 'faq.md', faqMarkdown);
    await uploadFile(alice, kb.ragId, 'security.txt', `Q: What is the markup test payload?\nA: The markup test payload is ${payload} and it must stay text.`);
    kb.apiKey = (await createKey(alice, kb.ragId, ['localhost'])).apiKey;
    busy.ragId = await createKb(alice, 'Busy Helper');
    await uploadFile(alice, busy.ragId, 'faq.md', faqMarkdown);
    busy.apiKey = (await createKey(alice, busy.ragId, ['localhost'])).apiKey;

    pages['/'] = page(snippet(kb));
    pages['/hostile.html'] = page(snippet(kb), { head: `<style>${hostileCss}</style>` });
    pages['/de.html'] = page(snippet(kb, ' data-accent="#ffcc00"'), { lang: 'de', head: '<style>groundwork-chat { --gw-radius: 4px }</style>' });
    pages['/busy.html'] = page(snippet(busy));
    const bob = await signedInClient(llmServer.baseUrl);
    const slow = { ragId: await createKb(bob, 'Slow Helper'), apiKey: '' };
    await uploadFile(bob, slow.ragId, 'faq.md', faqMarkdown);
    slow.apiKey = (await createKey(bob, slow.ragId, ['localhost'])).apiKey;
    pages['/slow.html'] = page(snippet(slow, '', llmServer));
    pages['/light.html'] = page(snippet(kb), { head: '<meta name="color-scheme" content="light">' });
    pages['/dark.html'] = page(snippet(kb), { head: '<style>:root { color-scheme: dark; background: #000; color: #eee }</style>' });
    const csp = `default-src 'none'; script-src ${server.baseUrl}; connect-src ${server.baseUrl}; style-src 'none'; img-src 'none'`;
    pages['/csp.html'] = page(snippet(kb), { head: `<meta http-equiv="Content-Security-Policy" content="${csp}">` });
  });

  afterEach(async () => {
    await context?.close();
    context = undefined;
    expect(strays, 'requests that left the test origins').toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([site?.close(), elsewhere?.close()]);
    await Promise.all([server?.stop(), llmServer?.stop()]);
    await llm?.close();
  });

  it('serves widget.js cacheable, as JavaScript, to any origin, under 15 KB gzipped', async () => {
    const response = await fetch(`${server.baseUrl}/widget.js`, { headers: { origin: 'http://localhost:1' } });
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(gzipSync(body).length).toBeLessThan(15 * 1024);
    const again = await fetch(`${server.baseUrl}/widget.js`, { headers: { 'if-none-match': response.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
  });

  /** Asks until the knowledge base's minute limit refuses (at most twice the limit's 10 queries); whether it did. */
  async function useUpMinuteLimit(kb: { ragId: string; apiKey: string }): Promise<boolean> {
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${server.baseUrl}/api/v1/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': kb.apiKey },
        body: JSON.stringify({ ragId: kb.ragId, query: 'How long is the warranty?' }),
      });
      await response.arrayBuffer();
      if (response.status === 429) return true;
      expect(response.status).toBe(200);
    }
    return false;
  }

  it('gives the widget its settings after the whitelist check, with CORS, without counting queries', async () => {
    const config = (origin: string, key = busy.apiKey) =>
      fetch(`${server.baseUrl}/api/v1/widget/config?ragId=${busy.ragId}&key=${encodeURIComponent(key)}`, { headers: { origin } });
    for (let i = 0; i < 11; i++) {
      const allowed = await config(`http://localhost:${site.port}`);
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(`http://localhost:${site.port}`);
      expect(await allowed.json()).toEqual({ botName: 'Busy Helper', greeting: null, starterQuestions: [], fallbackMessage: null, theme: {}, allowed: true });
    }
    const refused = await config('http://127.0.0.2:9');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBe('http://127.0.0.2:9');
    expect(((await refused.json()) as { code: string }).code).toBe('origin_not_allowed');
    const badKey = await config(`http://localhost:${site.port}`, 'gw_live_notarealkeynotarealkeynotareal1');
    expect(badKey.status).toBe(401);
    expect(badKey.headers.get('access-control-allow-origin')).toBe(`http://localhost:${site.port}`);

    // Eleven settings reads used none of the 10 queries a minute: the limit is still whole.
    for (let i = 0; i < 10; i++) {
      const answered = await fetch(`${server.baseUrl}/api/v1/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': busy.apiKey },
        body: JSON.stringify({ ragId: busy.ragId, query: 'How long is the warranty?' }),
      });
      expect(answered.status, `query ${i + 1}`).toBe(200);
    }
  });

  it('streams a cited answer; citations reveal their passage; keyboard and focus work; axe finds nothing serious', async () => {
    const p = await open(siteUrl('/'));
    const launcher = p.getByRole('button', { name: 'Open chat' });
    expect(await launcher.getAttribute('aria-expanded')).toBe('false');
    await p.waitForFunction(inShadow("root.querySelector('h2').textContent === 'Nordlicht Helper'"));
    await screenshot(p, 'widget-desktop-closed');

    await launcher.focus();
    await p.keyboard.press('Enter');
    expect(await p.evaluate(inShadow("root.activeElement && root.activeElement.id"))).toBe('q');
    expect(await p.evaluate(inShadow("root.querySelector('.l').getAttribute('aria-expanded')"))).toBe('true');
    await p.keyboard.press('Tab');
    expect(await p.evaluate(inShadow('root.activeElement && root.activeElement.className'))).toBe('sd');
    await p.keyboard.press('Shift+Tab');
    expect(await p.evaluate(inShadow('root.activeElement && root.activeElement.id'))).toBe('q');
    expect(await p.getByRole('dialog').getAttribute('aria-label') ?? (await p.getByRole('dialog').getAttribute('aria-labelledby'))).toBeTruthy();

    const streamed = p.waitForResponse((r) => r.url().endsWith('/api/v1/query/stream') && r.request().method() === 'POST');
    await ask(p, 'How long do I have to return a bike?');
    const response = await streamed;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^text\/event-stream/);

    const cite = lastBot(p).locator('button.c').first();
    await cite.waitFor();
    expect(await lastBot(p).innerText()).toMatch(/30 days/);
    expect(await p.evaluate(inShadow("root.querySelector('.g').getAttribute('aria-live')"))).toBe('polite');
    const passage = lastBot(p).locator('details p').first();
    expect(await passage.isVisible()).toBe(false);
    await cite.click();
    expect(await passage.isVisible()).toBe(true);
    expect(await passage.innerText()).toMatch(/return any bike within 30 days/);
    // The record's title (its section heading) names the source, in the list and on the citation button.
    expect(await lastBot(p).locator('summary').first().innerText()).toBe('[1] Returns');
    expect(await lastBot(p).locator('button.c').first().getAttribute('aria-label')).toBe('Source 1: Returns');

    const axe = await new AxeBuilder({ page: p }).include('groundwork-chat').analyze();
    const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`)).toEqual([]);

    await screenshot(p, 'widget-desktop-open-answer');
    await p.setViewportSize({ width: 390, height: 844 });
    await screenshot(p, 'widget-phone-open-answer');

    await p.keyboard.press('Escape');
    expect(await p.getByRole('dialog').isVisible()).toBe(false);
    expect(await p.evaluate(inShadow("root.activeElement && root.activeElement.className"))).toBe('l');
    await screenshot(p, 'widget-phone-closed');
  });

  it('shows an answer that contains markup as text and runs none of it', async () => {
    const p = await open(siteUrl('/'));
    await p.getByRole('button', { name: 'Open chat' }).click();
    await ask(p, 'What is the markup test payload?');
    await lastBot(p).locator('button.c').first().waitFor();
    expect(await lastBot(p).innerText()).toContain('<img src=x onerror=');
    await lastBot(p).locator('button.c').first().click();
    expect(await lastBot(p).locator('details p').first().innerText()).toContain(payload);
    expect(await p.evaluate(inShadow("root.querySelectorAll('img').length"))).toBe(0);
    expect(await p.evaluate('document.querySelectorAll("img").length')).toBe(0);
    expect(await p.evaluate('window.__gwPwned')).toBeUndefined();
  });

  it('looks the same on a page whose CSS tries to restyle everything', async () => {
    const look = async (path: string) => {
      const p = await open(siteUrl(path), { reducedMotion: 'reduce' });
      await p.getByRole('button', { name: 'Open chat' }).click();
      await p.waitForFunction(inShadow("root.querySelector('h2').textContent === 'Nordlicht Helper'"));
      const result = (await p.evaluate(widgetLook)) as Record<string, Record<string, string>>;
      if (path !== '/') await screenshot(p, 'widget-desktop-hostile-css');
      await context?.close();
      return result;
    };
    const plain = await look('/');
    const hostile = await look('/hostile.html');
    expect(hostile).toEqual(plain);
    expect(plain['.l']?.display).toBe('grid');
    expect(plain['.p']?.['font-family']).toMatch(/system-ui/);
  });

  it('keeps its looks and works on a page whose Content-Security-Policy forbids inline styles', async () => {
    const violations: string[] = [];
    const p = await open(siteUrl('/csp.html'));
    p.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    const style = (sel: string, prop: string) => p.evaluate(inShadow(`getComputedStyle(root.querySelector('${sel}')).getPropertyValue('${prop}')`));
    expect(await style('.l', 'display')).toBe('grid');
    expect(await style('.l', 'background-color')).toBe('rgb(37, 99, 235)');
    await p.getByRole('button', { name: 'Open chat' }).click();
    await ask(p, 'Where do orders ship from?');
    await lastBot(p).locator('button.c').first().waitFor();
    expect(await lastBot(p).innerText()).toMatch(/Bremen/);
    expect(violations).toEqual([]);
  });

  /** Opens a page whose widget is refused; returns its console warnings once the refusal has been handled. */
  async function openRefused(url: string): Promise<{ p: Page; warnings: string[] }> {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    strays = guardRequests(context, allowedOrigins);
    const p = await context.newPage();
    const warnings: string[] = [];
    p.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    // The widget's own report of the refusal, registered before any script runs.
    await p.addInitScript(`document.addEventListener('groundwork:error', (e) => { window.__gwRefused = e.detail; })`);
    const config = p.waitForResponse((r) => r.url().startsWith(`${server.baseUrl}/api/v1/widget/config`));
    await p.goto(url);
    expect([401, 403]).toContain((await config).status());
    await p.waitForFunction('window.__gwRefused !== undefined');
    await expect.poll(() => warnings.length).toBeGreaterThan(0);
    return { p, warnings };
  }

  it('shows no launcher on a page that is not on the whitelist, and warns once in the console naming the host to add', async () => {
    const { p, warnings } = await openRefused(`http://127.0.0.2:${elsewhere.port}/`);
    expect(await p.evaluate('window.__gwRefused')).toMatchObject({ phase: 'config', status: 403, code: 'origin_not_allowed' });
    expect(await p.locator('groundwork-chat').count()).toBe(0);
    expect(await p.getByRole('button', { name: 'Open chat' }).count()).toBe(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('Requests from 127.0.0.2 are not allowed for this key');
    expect(warnings[0]).toContain('Add 127.0.0.2 to the whitelist of this key');
  });

  it('shows no launcher with a revoked key, and warns once in the console', async () => {
    const owner = await signedInClient(server.baseUrl);
    const ragId = await createKb(owner, 'Revoked Helper');
    const created = await createKey(owner, ragId, ['localhost']);
    expect((await owner.delete(`/api/v1/knowledge-bases/${ragId}/keys/${created.key.keyId}`)).status).toBe(204);
    pages['/revoked.html'] = page(snippet({ ragId, apiKey: created.apiKey }));
    const { p, warnings } = await openRefused(siteUrl('/revoked.html'));
    expect(await p.evaluate('window.__gwRefused')).toMatchObject({ phase: 'config', status: 401 });
    expect(await p.locator('groundwork-chat').count()).toBe(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Groundwork widget not shown on localhost: The API key is invalid, revoked, or not a key of this knowledge base\./);
  });

  it("shows the service's own answer when the records do not answer (the owner's fallback message), as text, with no refusal of its own", async () => {
    const carol = await signedInClient(server.baseUrl);
    const ragId = await createKb(carol, 'Fallback Helper');
    await uploadFile(carol, ragId, 'faq.md', faqMarkdown);
    const patched = await carol.patch(`/api/v1/knowledge-bases/${ragId}`, { fallbackMessage: `${payload} Ask us at help@shop.example` });
    expect(patched.status).toBe(200);
    const apiKey = (await createKey(carol, ragId, ['localhost'])).apiKey;
    const question = 'Which programming language is the moon made of?';
    // What the service answers (a server-to-server call, no Origin); the widget must show exactly that.
    const direct = await fetch(`${server.baseUrl}/api/v1/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ ragId, query: question }),
    });
    const expected = (await direct.json()) as { answer: string; grounded: boolean };
    expect(expected.grounded).toBe(false);

    pages['/fallback.html'] = page(snippet({ ragId, apiKey }));
    const p = await open(siteUrl('/fallback.html'));
    await p.getByRole('button', { name: 'Open chat' }).click();
    await ask(p, question);
    await expect.poll(() => lastBot(p).getAttribute('aria-busy')).toBeNull();
    expect(await lastBot(p).innerText()).toBe(expected.answer);
    expect(await p.evaluate('window.__gwPwned')).toBeUndefined();
    expect(await p.evaluate(inShadow("root.querySelectorAll('img').length"))).toBe(0);
  });

  it('offers the records near a refused question as questions to ask, and asks one when clicked', async () => {
    const dana = await signedInClient(server.baseUrl);
    const ragId = await createKb(dana, 'Coffee Helper');
    // The first 20 products of the evaluation's coffee catalogue (the default quota is 25 records).
    const products = (JSON.parse(readFileSync(new URL('../../eval/sets/catalogue-en/catalogue.json', import.meta.url), 'utf8')) as unknown[]).slice(0, 20);
    await uploadFile(dana, ragId, 'catalogue.json', JSON.stringify(products));
    const apiKey = (await createKey(dana, ragId, ['localhost'])).apiKey;
    pages['/coffee.html'] = page(snippet({ ragId, apiKey }));
    const p = await open(siteUrl('/coffee.html'));
    await p.getByRole('button', { name: 'Open chat' }).click();
    await ask(p, 'Does the E48 grinder come in red?');
    const offered = lastBot(p).getByRole('group', { name: 'Maybe this helps:' });
    await offered.waitFor();
    expect(await lastBot(p).locator('.o button').allInnerTexts()).toEqual(['Fellside E48 Electric Grinder']);
    expect(await lastBot(p).locator('button.c').count()).toBe(0); // a refusal cites nothing
    const axe = await new AxeBuilder({ page: p }).include('groundwork-chat').analyze();
    const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`)).toEqual([]);
    await screenshot(p, 'widget-desktop-suggestions');

    // Asked as a whole question: without the refused one as its conversation.
    const followed = p.waitForRequest((r) => r.url().endsWith('/api/v1/query/stream') && r.method() === 'POST');
    await offered.getByRole('button', { name: 'Fellside E48 Electric Grinder' }).click();
    expect(JSON.parse((await followed).postData() ?? '{}')).toEqual({ ragId, query: 'Fellside E48 Electric Grinder' });
    await expect.poll(() => p.locator('groundwork-chat .g .m.u').last().innerText()).toBe('Fellside E48 Electric Grinder');
    await lastBot(p).locator('button.c').first().waitFor();
    expect(await lastBot(p).locator('summary').first().innerText()).toBe('[1] Fellside E48 Electric Grinder');
    expect(await lastBot(p).locator('.o').count()).toBe(0);
  });

  it("offers the owner's starter questions until the visitor asks, as text, and asks one whole when clicked", async () => {
    const erin = await signedInClient(server.baseUrl);
    const ragId = await createKb(erin, 'Starter Helper');
    await uploadFile(erin, ragId, 'faq.md', faqMarkdown);
    const questions = ['How long do I have to return a bike?', `Is ${payload} safe?`];
    expect((await erin.patch(`/api/v1/knowledge-bases/${ragId}`, { starterQuestions: questions })).status).toBe(200);
    const apiKey = (await createKey(erin, ragId, ['localhost'])).apiKey;
    pages['/starters.html'] = page(snippet({ ragId, apiKey }));

    const p = await open(siteUrl('/starters.html'));
    await p.getByRole('button', { name: 'Open chat' }).click();
    const offered = p.locator('groundwork-chat').getByRole('group', { name: 'Suggested questions' });
    await offered.waitFor();
    expect(await offered.getByRole('button').allInnerTexts()).toEqual(questions);
    expect(await p.evaluate(inShadow("root.querySelectorAll('img').length"))).toBe(0);
    const axe = await new AxeBuilder({ page: p }).include('groundwork-chat').analyze();
    const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`)).toEqual([]);
    await screenshot(p, 'widget-desktop-starters');

    // A click asks the question as it stands, and the offer goes.
    const asked = p.waitForRequest((r) => r.url().endsWith('/api/v1/query/stream') && r.method() === 'POST');
    await offered.getByRole('button', { name: questions[0] }).click();
    expect(JSON.parse((await asked).postData() ?? '{}')).toEqual({ ragId, query: questions[0] });
    await expect.poll(() => p.locator('groundwork-chat .g .m.u').last().innerText()).toBe(questions[0]);
    await lastBot(p).locator('button.c').first().waitFor();
    expect(await lastBot(p).innerText()).toContain('30 days');
    expect(await p.locator('groundwork-chat .o').count()).toBe(0);
    expect(await p.evaluate('window.__gwPwned')).toBeUndefined();

    // On the next page load they are offered again; a visitor who types instead makes them go too.
    await p.reload();
    await p.getByRole('button', { name: 'Open chat' }).click();
    await offered.waitFor();
    await ask(p, 'Do you sell gift cards?');
    await expect.poll(() => lastBot(p).getAttribute('aria-busy')).toBeNull();
    expect(await p.locator('groundwork-chat .o').count()).toBe(0);

    // A page may give its own ("|" between them; blanks and repeats dropped), or none with an empty attribute.
    pages['/starters-own.html'] = page(snippet({ ragId, apiKey }, ' data-starter-questions="Do you sell gift cards? | |do you sell gift cards?|How long do I have to return a bike?"'));
    pages['/starters-none.html'] = page(snippet({ ragId, apiKey }, ' data-starter-questions=""'));
    await p.goto(siteUrl('/starters-own.html'));
    await p.getByRole('button', { name: 'Open chat' }).click();
    await offered.waitFor();
    expect(await offered.getByRole('button').allInnerTexts()).toEqual(['Do you sell gift cards?', 'How long do I have to return a bike?']);
    await p.goto(siteUrl('/starters-none.html'));
    await p.getByRole('button', { name: 'Open chat' }).click();
    // The settings have arrived (the panel is titled with the bot's name), and brought no starter questions.
    await p.locator('groundwork-chat h2', { hasText: 'Starter Helper' }).waitFor();
    expect(await p.locator('groundwork-chat .o').count()).toBe(0);
  });

  it('asks whether an answer from the records helped, and a press reaches the owner\'s usage report with the records cited', async () => {
    const fay = await signedInClient(server.baseUrl);
    const ragId = await createKb(fay, 'Feedback Helper');
    await uploadFile(fay, ragId, 'faq.md', faqMarkdown);
    const fallbackMessage = 'Write to <b>help</b>@nordlicht.example and we will answer.';
    expect((await fay.patch(`/api/v1/knowledge-bases/${ragId}`, { fallbackMessage })).status).toBe(200);
    const apiKey = (await createKey(fay, ragId, ['localhost'])).apiKey;
    pages['/feedback.html'] = page(snippet({ ragId, apiKey }));
    pages['/feedback-off.html'] = page(snippet({ ragId, apiKey }, ' data-feedback="off"'));
    pages['/feedback-de.html'] = page(snippet({ ragId, apiKey }), { lang: 'de' });

    const p = await open(siteUrl('/feedback.html'));
    await p.getByRole('button', { name: 'Open chat' }).click();
    await ask(p, 'How long do I have to return a bike?');
    const question = lastBot(p).getByRole('group', { name: 'Was this helpful?' });
    await question.waitFor();
    const cited = await lastBot(p).locator('summary').allInnerTexts();
    expect(cited.length).toBeGreaterThan(0);
    const axe = await new AxeBuilder({ page: p }).include('groundwork-chat').analyze();
    const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`)).toEqual([]);
    await screenshot(p, 'widget-desktop-feedback');

    const sent = p.waitForRequest((r) => r.url().endsWith('/api/v1/feedback') && r.method() === 'POST');
    const answered = p.waitForResponse((r) => r.url().endsWith('/api/v1/feedback') && r.request().method() === 'POST');
    await question.getByRole('button', { name: 'No' }).click();
    const body = JSON.parse((await sent).postData() ?? '{}') as { sources: string[] };
    expect(body).toMatchObject({ ragId, query: 'How long do I have to return a bike?', helpful: false });
    expect(body.sources.length).toBe(cited.length);
    expect((await answered).status()).toBe(204);
    // After No, the owner's way on (their fallback message), as text.
    await expect.poll(() => lastBot(p).locator('.y').innerText()).toBe(`Thanks for telling us.\n${fallbackMessage}`);
    expect(await lastBot(p).locator('.y button').count()).toBe(0);
    expect(await lastBot(p).locator('.y b').count()).toBe(0);

    type Report = { totals: { queries: number; unhelpful: number }; feedback: { question: string; records: { recordId: string }[] }[] };
    const report = (await fay.get<Report>(`/api/v1/knowledge-bases/${ragId}/usage`)).body;
    expect(report.totals).toMatchObject({ queries: 1, unhelpful: 1 });
    expect(report.feedback).toMatchObject([{ question: 'How long do I have to return a bike?' }]);
    expect(report.feedback[0]?.records.map((r) => r.recordId)).toEqual(body.sources);

    // Feedback on a follow-up goes with the turns it was asked with, so the owner reads it with the question it leaned on.
    const followUp = 'And what about the warranty?';
    await ask(p, followUp);
    const again = lastBot(p).getByRole('group', { name: 'Was this helpful?' });
    await again.waitFor();
    const sentAgain = p.waitForRequest((r) => r.url().endsWith('/api/v1/feedback') && r.method() === 'POST');
    const answeredAgain = p.waitForResponse((r) => r.url().endsWith('/api/v1/feedback') && r.request().method() === 'POST');
    await again.getByRole('button', { name: 'No' }).click();
    const followBody = JSON.parse((await sentAgain).postData() ?? '{}') as { query: string; conversation?: { role: string; content: string }[] };
    expect(followBody.query).toBe(followUp);
    expect(followBody.conversation?.map((turn) => turn.role)).toEqual(['user', 'assistant']);
    expect(followBody.conversation?.[0]?.content).toBe('How long do I have to return a bike?');
    expect((await answeredAgain).status()).toBe(204);
    const listed = (await fay.get<{ feedback: { question: string; askedAfter?: string }[] }>(`/api/v1/knowledge-bases/${ragId}/usage`)).body.feedback;
    expect(listed).toContainEqual(expect.objectContaining({ question: followUp, askedAfter: 'How long do I have to return a bike?' }));

    // Not asked under a refusal (the owner's unanswered questions already list it), nor small talk.
    await ask(p, 'Do you sell oat milk?');
    await expect.poll(() => lastBot(p).getAttribute('aria-busy')).toBeNull();
    await ask(p, 'thanks!');
    await expect.poll(() => lastBot(p).getAttribute('aria-busy')).toBeNull();
    expect(await p.locator('groundwork-chat .y').count()).toBe(2);

    // In the page's language; left out with data-feedback="off".
    await p.goto(siteUrl('/feedback-de.html'));
    await p.getByRole('button', { name: 'Chat öffnen' }).click();
    await ask(p, 'How long do I have to return a bike?');
    // By keyboard: the pressed button goes, and focus moves to the thanks, not to the page.
    await lastBot(p).getByRole('group', { name: 'War das hilfreich?' }).getByRole('button', { name: 'Ja' }).focus();
    await p.keyboard.press('Enter');
    await expect.poll(() => lastBot(p).locator('.y').innerText()).toBe('Danke für Ihr Feedback.');
    expect(await p.evaluate(inShadow("root.activeElement && root.activeElement.className"))).toBe('y');
    await p.goto(siteUrl('/feedback-off.html'));
    await p.getByRole('button', { name: 'Open chat' }).click();
    await ask(p, 'How long do I have to return a bike?');
    await lastBot(p).locator('button.c').first().waitFor();
    await expect.poll(() => lastBot(p).getAttribute('aria-busy')).toBeNull();
    expect(await p.locator('groundwork-chat .y').count()).toBe(0);
    await expect.poll(async () => (await fay.get<Report>(`/api/v1/knowledge-bases/${ragId}/usage`)).body.totals).toMatchObject({ unhelpful: 2, helpful: 1 });
  });

  it('says when to try again after a 429', async () => {
    const p = await open(siteUrl('/busy.html'));
    await p.getByRole('button', { name: 'Open chat' }).click();
    // Use up the minute's queries just before the widget asks: the window slides, and on a busy
    // machine the tests before this one can take longer than a minute.
    const refused = await useUpMinuteLimit(busy);
    expect(refused, 'the query limit was never reached').toBe(true);
    await ask(p, 'How long is the warranty?');
    await p.locator('groundwork-chat .m.e').waitFor();
    expect(await lastBot(p).innerText()).toMatch(/^Too many questions right now\. Please try again in \d+ (seconds?|minutes?)\.$/);
    expect(await p.locator('groundwork-chat textarea').isDisabled()).toBe(false);
  });

  it('follows the page language, the colour scheme, reduced motion, data-accent and --gw-* variables', async () => {
    const p = await open(siteUrl('/de.html'), { colorScheme: 'dark', reducedMotion: 'reduce' });
    const launcher = p.getByRole('button', { name: 'Chat öffnen' });
    await launcher.click();
    expect(await p.getByRole('button', { name: 'Chat schließen' }).count()).toBeGreaterThan(0);
    expect(await p.locator('groundwork-chat textarea').getAttribute('placeholder')).toBe('Frage eingeben…');
    const style = (sel: string, prop: string) => p.evaluate(inShadow(`getComputedStyle(root.querySelector('${sel}')).getPropertyValue('${prop}')`));
    expect(await style('.p', 'background-color')).toBe('rgb(17, 24, 39)');
    expect(await style('.l', 'background-color')).toBe('rgb(255, 204, 0)');
    expect(await style('.l', 'color')).toBe('rgb(17, 24, 39)');
    expect(await style('.p', 'border-radius')).toBe('4px');
    expect(await style('.p', 'animation-name')).toBe('none');
    expect(await p.evaluate(inShadow("root.querySelector('.r').getAttribute('lang')"))).toBe('de');
    await screenshot(p, 'widget-desktop-dark-de');
  });

  it('follows a page that declares a single colour scheme over the system preference', async () => {
    const panelColour = async (path: string, colorScheme: 'light' | 'dark') => {
      const p = await open(siteUrl(path), { colorScheme, reducedMotion: 'reduce' });
      await p.getByRole('button', { name: 'Open chat' }).click();
      const colour = await p.evaluate(inShadow("getComputedStyle(root.querySelector('.p')).backgroundColor"));
      await context?.close();
      return colour;
    };
    expect(await panelColour('/light.html', 'dark')).toBe('rgb(255, 255, 255)');
    expect(await panelColour('/dark.html', 'light')).toBe('rgb(17, 24, 39)');
    expect(await panelColour('/', 'dark')).toBe('rgb(17, 24, 39)');
  });

  it('shows tokens as they stream, then the final answer; closing the panel stops the answer on the server', async () => {
    const p = await open(siteUrl('/slow.html'), { reducedMotion: 'reduce' });
    await p.getByRole('button', { name: 'Open chat' }).click();
    llm.behaviour = answerWith(['Orders ship ', 'from Bremen ', 'within 2 days [1].'], { gapMs: 400 });
    await ask(p, 'Where do orders ship from?');
    await p.waitForFunction(inShadow("[...root.querySelectorAll('.g .m')].pop().textContent.startsWith('Orders ship')"));
    // Part of the answer is on screen before the rest exists: no citation yet, still busy.
    expect(await lastBot(p).locator('button.c').count()).toBe(0);
    expect(await lastBot(p).getAttribute('aria-busy')).toBe('true');
    await lastBot(p).locator('button.c').first().waitFor();
    expect(await lastBot(p).innerText()).toMatch(/^Orders ship from Bremen within 2 days 1\./);
    expect(await lastBot(p).getAttribute('aria-busy')).toBeNull();

    llm.behaviour = answerWith(['Returns ', 'are ', 'free ', 'for ', '30 ', 'days [1].'], { gapMs: 1000 });
    const requests = llm.requests.length;
    await ask(p, 'How do returns work?');
    await p.waitForFunction(inShadow("[...root.querySelectorAll('.g .m')].pop().textContent.startsWith('Returns')"));
    await p.keyboard.press('Escape');
    const request = llm.requests[requests];
    expect(request).toBeDefined();
    expect((await within(request?.closed ?? Promise.resolve({ aborted: false }), 5000, 'the model call was not stopped')).aborted).toBe(true);
    await p.getByRole('button', { name: 'Open chat' }).click();
    expect(await lastBot(p).innerText()).toMatch(/^Returns[^]*\nStopped\.$/);
    expect(await p.locator('groundwork-chat .sd').isDisabled()).toBe(false);
  });
});
