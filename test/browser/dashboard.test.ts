/**
 * The dashboard in a real browser (Debian's Chromium through playwright-core):
 * the first-run journey (sign in with the outbox code, create a knowledge
 * base, upload with progress and report, generate a key shown once, see the
 * records, ask in the Playground, turn an unanswered question into a record,
 * see and dismiss the answers visitors found unhelpful),
 * every tab rendered, axe on every page (no serious or critical violations),
 * screenshots at desktop and phone sizes, and a guard that fails if any
 * request leaves the server's origin or the page logs an error (a CSP
 * violation included).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, describeIf } from '../support/requirements.js';
import { startServer, type TestServer } from '../support/server.js';
import { buildWeb, launchChromium, signInThroughDashboard } from './support.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const shots = path.join(root, 'test-results', 'screenshots');
const tabs = ['knowledge', 'keys', 'widget', 'playground', 'usage'] as const;
const viewports = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

const faq = `# Shipping

Q: How long does delivery take?
A: Three to five working days within the EU.

# Returns

You can return any unused item within 30 days for a full refund.
`;

describeIf(chromium, 'dashboard in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let ragId = '';
  const offOrigin: string[] = [];
  const pageErrors: string[] = [];

  async function newContext(viewport = viewports.desktop): Promise<BrowserContext> {
    const ctx = await browser.newContext({ baseURL: server.baseUrl, viewport, reducedMotion: 'reduce' });
    // The guard: nothing may leave the server's origin.
    await ctx.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin !== server.baseUrl) {
        offOrigin.push(url);
        return route.abort();
      }
      return route.continue();
    });
    return ctx;
  }

  function watch(p: Page): Page {
    p.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
    p.on('console', (message) => {
      // HTTP statuses are logged as "Failed to load resource" (a signed-out session check answers 401 by
      // design) and are checked below by status; anything else, a CSP refusal included, is a failure.
      if (message.type() === 'error' && !/^Failed to load resource/.test(message.text())) pageErrors.push(`console: ${message.text()}`);
    });
    p.on('response', (response) => {
      if (response.status() >= 500) pageErrors.push(`HTTP ${response.status()} ${response.url()}`);
    });
    return p;
  }

  const signIn = (p: Page, email: string) => signInThroughDashboard(p, server.baseUrl, email);

  /** The browser's cookies, to check what the page did through the API directly. */
  async function cookieHeader(): Promise<string> {
    return (await context.cookies(server.baseUrl)).map((c) => `${c.name}=${c.value}`).join('; ');
  }

  async function axe(p: Page, label: string): Promise<void> {
    const results = await new AxeBuilder({ page: p }).analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      bad.map((v) => `${label}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `axe on ${label}`,
    ).toEqual([]);
  }

  beforeAll(async () => {
    // Build the pages exactly as `npm run build:web` does.
    await buildWeb();
    server = await startServer();
    browser = await launchChromium();
    context = await newContext();
    page = watch(await context.newPage());
    fs.mkdirSync(shots, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('first run: sign in, create, upload with progress and report, key once, records, playground, usage', async () => {
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Sign in to Groundwork' }).waitFor();
    await page.screenshot({ path: path.join(shots, 'sign-in-desktop.png') });
    await signIn(page, 'first.run@example.test');
    await expect(page.getByText('No knowledge bases yet')).toBeDefined();

    // Create: bot name, then straight to the Knowledge tab.
    await page.getByRole('link', { name: 'Create your first knowledge base' }).click();
    await page.getByLabel('Bot name').fill('Shop helper');
    await page.getByRole('button', { name: 'Create and add knowledge' }).click();
    await page.waitForURL(/\/dashboard\/kb\/[^/]+\/knowledge$/);
    ragId = /\/kb\/([^/]+)\//.exec(page.url())?.[1] ?? '';
    expect(ragId).toMatch(/^kb_/);
    await page.getByRole('heading', { level: 1, name: 'Shop helper' }).waitFor();

    // Upload through the file picker: progress reaches 100 % and the report shows.
    await page.locator('#file-input').setInputFiles({ name: 'faq.md', mimeType: 'text/markdown', buffer: Buffer.from(faq) });
    await page.getByText('Uploaded faq.md').waitFor();
    expect(await page.locator('.upload progress').evaluate((el) => (el as unknown as { value: number }).value)).toBe(100);
    await expect.poll(() => page.getByTestId('report-added').textContent()).toBe('2');
    expect(await page.getByTestId('report-duplicate').textContent()).toBe('0');

    // A larger file over a throttled connection: the bar shows intermediate progress events.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 200 * 1024 });
    // Record every value the page gives the bar (this file is type-checked without DOM types: plain JS).
    await page.evaluate(`(() => {
      const bar = document.querySelector('.upload progress');
      const seen = (window.seenProgress = []);
      const original = Object.getOwnPropertyDescriptor(HTMLProgressElement.prototype, 'value');
      Object.defineProperty(bar, 'value', {
        get: () => original.get.call(bar),
        set: (v) => { seen.push(v); original.set.call(bar, v); },
      });
    })()`);
    const padded = `Opening hours: nine to five, Monday to Friday.\n\n${' \n'.repeat(300_000)}\nWe ship worldwide except to Antarctica.\n`;
    await page.locator('#file-input').setInputFiles({ name: 'hours.txt', mimeType: 'text/plain', buffer: Buffer.from(padded) });
    await page.getByText('Uploaded hours.txt').waitFor({ timeout: 30_000 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const seen = (await page.evaluate('window.seenProgress')) as number[];
    expect(seen.some((v) => v > 0 && v < 100), `progress values ${seen.join(',')}`).toBe(true);
    expect(seen.at(-1)).toBe(100);
    await page.getByRole('heading', { name: 'Report: hours.txt' }).waitFor();
    const hoursAdded = Number(await page.getByTestId('report-added').textContent());
    expect(hoursAdded).toBeGreaterThan(0);
    const total = 2 + hoursAdded;

    // Paste the same answer again: reported as a duplicate, no quota used.
    await page.getByLabel('Name', { exact: true }).fill('Again');
    await page.getByRole('textbox', { name: 'Text', exact: true }).fill('Q: How long does delivery take?\nA: Three to five working days within the EU.');
    await page.getByRole('button', { name: 'Add to knowledge' }).click();
    await expect.poll(() => page.getByTestId('report-duplicate').textContent()).toBe('1');
    expect(await page.getByTestId('report-added').textContent()).toBe('0');

    // Drag and drop: an unsupported file is refused in the page; a dropped .md is uploaded (all duplicates here).
    const drop = async (name: string, content: string) => {
      const dataTransfer = await page.evaluateHandle(
        `(() => { const d = new DataTransfer(); d.items.add(new File([${JSON.stringify(content)}], ${JSON.stringify(name)})); return d; })()`,
      );
      await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer });
    };
    await drop('prices.xlsx', 'a,b');
    await page.getByText('“prices.xlsx” is not a .json, .jsonl, .txt, .md, .csv, .pdf or .html file.').waitFor();
    await drop('faq-copy.md', faq);
    await page.getByText('Uploaded faq-copy.md').waitFor();
    await expect.poll(() => page.getByTestId('report-duplicate').textContent()).toBe('2');

    // Records: listed, searchable.
    await expect.poll(() => page.getByTestId('records').locator('li').count()).toBe(total);
    await page.getByLabel('Search records').fill('refund');
    await expect.poll(() => page.getByTestId('records').locator('li').count()).toBe(1);
    expect(await page.getByText(`1 of ${total} records match.`).count()).toBe(1);
    await page.getByLabel('Search records').fill('');

    // API Keys: the full key once, with a copy button.
    await page.getByRole('link', { name: 'API Keys' }).click();
    await page.getByLabel('Allowed domains').fill('127.0.0.1\nshop.example.com');
    await page.getByRole('button', { name: 'Generate key' }).click();
    const newKey = page.getByTestId('new-key');
    await newKey.waitFor();
    const fullKey = await newKey.inputValue();
    expect(fullKey).toMatch(/^gw_live_[A-Za-z0-9]{32}$/);
    await page.getByRole('button', { name: 'Copy key' }).waitFor();
    // Wait for the list to show the new key: until its reload lands it may still say "No keys yet." (one li too).
    await page.getByTestId('keys').locator('li', { hasText: fullKey.slice(0, 12) }).waitFor();
    await expect.poll(() => page.getByTestId('keys').locator('li').count()).toBe(1);
    expect(await page.getByTestId('keys').textContent()).toContain(fullKey.slice(0, 12));
    expect(await page.getByTestId('keys').textContent()).not.toContain(fullKey);
    // Shown once: after leaving and coming back it is gone.
    await page.getByRole('link', { name: 'Knowledge', exact: true }).click();
    await page.getByRole('link', { name: 'API Keys' }).click();
    await page.getByTestId('keys').locator('li').first().waitFor();
    expect(await page.getByTestId('new-key').count()).toBe(0);
    expect(await page.content()).not.toContain(fullKey);

    // Playground: the owner asks with no key; the answer streams in with a citation.
    await page.getByRole('link', { name: 'Playground', exact: true }).click();
    await page.getByRole('textbox', { name: 'Question' }).fill('How long does delivery take?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await expect.poll(() => page.getByTestId('answer').textContent(), { timeout: 10_000 }).toContain('working days');
    await page.getByText('Grounded in your records').waitFor();
    await page.getByRole('button', { name: 'Source 1' }).first().click();
    expect(await page.locator('#cite-1').evaluate((el) => (el as unknown as { open: boolean }).open)).toBe(true);
    expect(await page.locator('#cite-1 .passage').textContent()).toContain('Three to five working days');
    await page.screenshot({ path: path.join(shots, 'playground-answer-desktop.png'), fullPage: true });
    await page.getByRole('textbox', { name: 'Question' }).fill('Do you sell gift cards for horses?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByText('Not in your records').waitFor();

    // Usage: the chart; the owner's Playground questions are not visitors' and are not listed.
    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    await page.getByRole('heading', { name: 'Queries per day' }).waitFor();
    expect(await page.locator('svg.chart rect.bar').count()).toBe(30);
    await page.getByTestId('unanswered').getByText('No unanswered questions').waitFor();
    // A visitor asks the same through the public API with the key: now it is an unanswered question,
    // which becomes a prefilled paste.
    const visitor = await fetch(`${server.baseUrl}/api/v1/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': fullKey },
      body: JSON.stringify({ ragId, query: 'Do you sell gift cards for horses?' }),
    });
    expect(visitor.status).toBe(200);
    expect(((await visitor.json()) as { grounded: boolean }).grounded).toBe(false);
    await page.getByRole('link', { name: 'Knowledge', exact: true }).click();
    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    await page.getByTestId('unanswered').getByText('Do you sell gift cards for horses?').waitFor();
    await page.getByRole('button', { name: 'Add a record for this' }).click();
    await page.waitForURL(/\/knowledge$/);
    expect(await page.getByRole('textbox', { name: 'Text', exact: true }).inputValue()).toBe('Q: Do you sell gift cards for horses?\nA: ');
    expect(await page.evaluate('document.activeElement.tagName')).toBe('TEXTAREA');

    // Widget: the snippet names this knowledge base.
    await page.getByRole('link', { name: 'Widget', exact: true }).click();
    // The page has finished rendering when it moves focus to its heading; typing before that can
    // race the focus move on a busy machine.
    await page.locator('h1:focus').waitFor();
    const snippet = await page.getByLabel('Embed code').inputValue();
    expect(snippet).toContain(`data-rag-id="${ragId}"`);
    expect(snippet).toContain(`data-api-key="${fullKey}"`);
    expect(snippet).toContain(`${server.baseUrl}/widget.js`);
    const greeting = page.getByLabel('Greeting');
    const fallback = page.getByRole('textbox', { name: 'Message when the bot has no answer' });
    expect(await fallback.getAttribute('aria-describedby')).toBeTruthy(); // its help text
    const fallbackText = '<b>Ask us</b> at help@shop.example';
    const starters = page.getByRole('textbox', { name: 'Starter questions' });
    // On a loaded CI machine the greeting was once found empty at save time (cause not found: see
    // the closing note of session 6); fill until the form holds all three values, then save.
    for (let attempt = 0; ; attempt++) {
      await greeting.fill('Hello from the shop!');
      await fallback.fill(`  ${fallbackText}  `);
      await starters.fill('How long does delivery take?\n\n  How long is the <i>warranty</i>?  ');
      await page.getByLabel('Position').selectOption('bottom-left');
      const held = (await greeting.inputValue()) === 'Hello from the shop!' && (await fallback.inputValue()).trim() === fallbackText && (await starters.inputValue()).includes('warranty');
      if (held) break;
      expect(attempt, 'the Widget form kept losing typed values').toBeLessThan(3);
    }
    await page.getByRole('button', { name: 'Save appearance' }).click();
    await page.getByText(/^Saved\./).waitFor();
    // Each new starter question was asked: the one no record answers is named, as text.
    await page.getByText('The bot does not answer this starter question yet: “How long is the <i>warranty</i>?”.').waitFor();
    const savedKb = async () => {
      const kb = (await (await fetch(`${server.baseUrl}/api/v1/knowledge-bases/${ragId}`, { headers: { cookie: await cookieHeader() } })).json()) as {
        greeting?: string | null;
        fallbackMessage?: string | null;
        starterQuestions?: string[];
        theme?: { position?: string };
      };
      return { greeting: kb.greeting, fallbackMessage: kb.fallbackMessage, starterQuestions: kb.starterQuestions, position: kb.theme?.position };
    };
    const starterQuestions = ['How long does delivery take?', 'How long is the <i>warranty</i>?'];
    await expect.poll(savedKb).toEqual({ greeting: 'Hello from the shop!', fallbackMessage: fallbackText, starterQuestions, position: 'bottom-left' });
    expect(await page.locator('iframe.preview').count()).toBe(1);
    // Read back from the server when the tab opens again, as the text it is (markup is not interpreted).
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { name: 'Queries per day' }).waitFor();
    await page.getByRole('link', { name: 'Widget', exact: true }).click();
    await expect.poll(() => fallback.inputValue()).toBe(fallbackText);
    expect(await starters.inputValue()).toBe(starterQuestions.join('\n'));
    expect(await page.locator('form b, form i').count()).toBe(0);
    // A question too long is refused by its line; what was saved stays.
    await starters.fill(`How long does delivery take?\n\n${'x'.repeat(121)}`);
    await page.getByRole('button', { name: 'Save appearance' }).click();
    await page.getByText(/Starter question on line 3 must be at most 120 characters/).waitFor();
    expect((await savedKb()).starterQuestions).toEqual(starterQuestions);
    // The records' own questions fill the box: kept lines first, none twice.
    await starters.fill('Do you ship to Canada?');
    await page.getByRole('button', { name: 'Take from your records' }).click();
    await page.getByText(/^Added 1 from your records/).waitFor();
    expect(await starters.inputValue()).toBe('Do you ship to Canada?\nHow long does delivery take?');
    await page.getByRole('button', { name: 'Take from your records' }).click();
    await page.getByText('No other record is written as a question: write your own.').waitFor();

    // API Keys: edit the whitelist, then revoke (with confirmation).
    await page.getByRole('link', { name: 'API Keys' }).click();
    await page.getByRole('button', { name: /^Edit whitelist/ }).click();
    const whitelist = page.getByRole('textbox', { name: /^Allowed domains of/ });
    await whitelist.fill('127.0.0.1\n*.example.com');
    await page.getByRole('button', { name: 'Save whitelist' }).click();
    await page.getByTestId('keys').getByText('*.example.com').waitFor();
    expect(await page.getByTestId('keys').getByText('shop.example.com').count()).toBe(0);
    await page.getByRole('button', { name: /^Revoke/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByTestId('keys').getByText('No keys yet.').waitFor();

    // Home lists it with its quota.
    await page.getByRole('link', { name: '← All knowledge bases' }).click();
    await page.getByRole('link', { name: 'Shop helper', exact: true }).waitFor();
    expect(await page.getByText(`${total} of 25 records used`).count()).toBe(1);

    // A second knowledge base reaches the free plan's limit: Create is disabled, with the reason.
    await page.getByRole('link', { name: 'Create a knowledge base' }).click();
    await page.getByLabel('Bot name').fill('Docs bot');
    await page.getByRole('button', { name: 'Create and add knowledge' }).click();
    await page.waitForURL(/\/knowledge$/);
    await page.getByRole('link', { name: '← All knowledge bases' }).click();
    const create = page.getByRole('button', { name: 'Create a knowledge base' });
    await create.waitFor();
    expect(await create.isDisabled()).toBe(true);
    expect(await create.getAttribute('aria-describedby')).toBe('limit-why');
    expect(await page.locator('#limit-why').textContent()).toContain('2 of 2 knowledge bases');

    // Sign out: back to the sign-in form; the dashboard's API calls now answer 401.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Groundwork' }).waitFor();
    expect((await fetch(`${server.baseUrl}/api/v1/knowledge-bases`, { headers: { cookie: await cookieHeader() } })).status).toBe(401);
    await signIn(page, 'first.run@example.test');
  }, 240_000);

  it("the Knowledge tab keeps the owner's synonyms: a group a line, a refused line named, read back on the next visit", async () => {
    expect(ragId).not.toBe('');
    // From the Usage tab: the unanswered question names the words no record uses, and "Add a synonym" starts a line with the first.
    await page.goto(`/dashboard/kb/${ragId}/usage`);
    const horses = page.getByTestId('unanswered').getByRole('listitem').filter({ hasText: 'Do you sell gift cards for horses?' });
    await horses.getByText(/^No record uses: .*horses/).waitFor();
    const first = (await horses.locator('mark').first().textContent()) ?? '';
    expect(first).not.toBe('');
    await horses.getByRole('button', { name: 'Add a synonym' }).click();
    await page.waitForURL(/\/knowledge$/);
    const words = page.getByRole('textbox', { name: 'Words that mean the same' });
    await expect.poll(() => words.inputValue()).toBe(`${first}, `);
    await expect.poll(() => page.evaluate('document.activeElement?.getAttribute("name")')).toBe('synonyms');

    expect(await words.getAttribute('aria-describedby')).toBeTruthy(); // its help text
    const save = page.getByRole('button', { name: 'Save words' });

    // A line of one word is refused before sending; a member the service refuses is named by its line.
    // Lines are counted as the owner sees them, blank ones included.
    await words.fill('voucher, gift card\n\npostage');
    await save.click();
    await page.getByText('Line 3 needs at least two different words, separated by commas.').waitFor();
    await words.fill(`voucher, gift card\n\npostage, ${'x'.repeat(51)}`);
    await save.click();
    await page.getByText(/^Line 3, word 2 must be at most 50 characters/).waitFor();

    await words.fill('  voucher ,  gift card, Voucher\n\n<b>postage</b>, delivery cost  ');
    await save.click();
    await page.getByText('Saved. The next questions use them.').waitFor();
    const stored = async () =>
      ((await (await fetch(`${server.baseUrl}/api/v1/knowledge-bases/${ragId}`, { headers: { cookie: await cookieHeader() } })).json()) as { synonyms: string[][] }).synonyms;
    expect(await stored()).toEqual([
      ['voucher', 'gift card'],
      ['<b>postage</b>', 'delivery cost'],
    ]);
    expect(await words.inputValue()).toBe('voucher, gift card\n<b>postage</b>, delivery cost');
    expect(await page.locator('form b').count()).toBe(0); // text, never markup

    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    await page.getByRole('heading', { name: 'Queries per day' }).waitFor();
    await page.getByRole('link', { name: 'Knowledge', exact: true }).click();
    await expect.poll(() => words.inputValue()).toBe('voucher, gift card\n<b>postage</b>, delivery cost');

    // Emptied: none.
    await words.fill('');
    await save.click();
    await page.getByText('Saved: no synonyms.').waitFor();
    expect(await stored()).toEqual([]);
  });

  it("the Usage tab lists the answers visitors found unhelpful, with the records they cited, as text, and dismisses one", async () => {
    expect(ragId).not.toBe('');
    // The owner's own calls, as the page makes them (the session cookie and its CSRF token).
    const owner = async (method: string, apiPath: string, body?: unknown) => {
      const csrf = (await context.cookies(server.baseUrl)).find((c) => c.name === 'gw_csrf')?.value ?? '';
      return fetch(`${server.baseUrl}${apiPath}`, {
        method,
        headers: { cookie: await cookieHeader(), 'x-csrf-token': csrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    };
    // The journey revoked its key: a secret key for a visitor's server-to-server calls (no Origin is allowed).
    const created = await owner('POST', `/api/v1/knowledge-bases/${ragId}/keys`, { name: 'Feedback test', allowedDomains: ['shop.example.com'] });
    expect(created.status).toBe(201);
    const { apiKey, key } = (await created.json()) as { apiKey: string; key: { keyId: string } };
    const visitor = (apiPath: string, body: Record<string, unknown>) =>
      fetch(`${server.baseUrl}${apiPath}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body: JSON.stringify({ ragId, ...body }) });

    const question = 'How long does delivery take?';
    const answer = await visitor('/api/v1/query', { query: question });
    expect(answer.status).toBe(200);
    const sources = ((await answer.json()) as { sources: { recordId: string; sourceName: string }[] }).sources;
    expect(sources.length).toBeGreaterThan(0);
    const recordIds = sources.map((s) => s.recordId);
    expect((await visitor('/api/v1/feedback', { query: question, helpful: false, sources: recordIds })).status).toBe(204);
    expect((await visitor('/api/v1/feedback', { query: question, helpful: true, sources: recordIds })).status).toBe(204);

    interface Report {
      totals: { helpful: number; unhelpful: number };
      feedback: { question: string }[];
    }
    const report = async () => (await (await owner('GET', `/api/v1/knowledge-bases/${ragId}/usage`)).json()) as Report;
    // The report writes the instance's pending usage, feedback included, before it reads.
    expect((await report()).totals).toMatchObject({ helpful: 1, unhelpful: 1 });

    await page.goto(`/dashboard/kb/${ragId}/usage`);
    await page.getByRole('heading', { level: 2, name: 'Answers visitors found unhelpful' }).waitFor();
    const total = (label: string) => page.locator('.stat', { has: page.getByText(label, { exact: true }) }).locator('.value').textContent();
    expect(await total('Helpful')).toBe('1');
    expect(await total('Not helpful')).toBe('1');
    const list = page.getByTestId('feedback');
    const delivery = list.getByRole('listitem').filter({ hasText: question });
    await delivery.waitFor();
    expect(await delivery.getByText(/^1 × not helpful, 1 × helpful · last /).count()).toBe(1);
    const cited = (await delivery.getByTestId('cited-records').textContent()) ?? '';
    expect(cited).toMatch(/^Answered from: /);
    expect(cited).toContain(sources[0]?.sourceName);

    // "Try in Playground" asks it there as a visitor would, to see the answer they were given.
    await delivery.getByRole('button', { name: 'Try in Playground' }).click();
    await page.waitForURL(`**/dashboard/kb/${ragId}/playground`);
    expect(await page.getByRole('textbox', { name: 'Question' }).inputValue()).toBe(question);
    await expect.poll(() => page.getByTestId('answer').getAttribute('aria-busy')).toBe('false');
    await expect.poll(async () => (await page.getByTestId('answer').textContent()) ?? '').toMatch(/\S/);
    await page.goto(`/dashboard/kb/${ragId}/usage`);
    await delivery.waitFor();

    // An unanswered question a record added since answers is marked so, to dismiss.
    const repairs = 'Do you repair vintage typewriters?';
    expect(((await (await visitor('/api/v1/query', { query: repairs })).json()) as { grounded: boolean }).grounded).toBe(false);
    const pasted = await owner('POST', `/api/v1/knowledge-bases/${ragId}/sources`, { name: 'Repairs', text: '## Typewriter repairs\n\nWe repair vintage typewriters in our workshop.\n', format: 'md' });
    expect(pasted.status).toBe(201);
    await page.reload();
    const typewriters = page.getByTestId('unanswered').getByRole('listitem').filter({ hasText: repairs });
    await typewriters.getByText('Answered now', { exact: true }).waitFor();

    // A refused follow-up is listed with the question it leaned on; "Try in Playground" asks that one first, then the follow-up after it.
    const followUp = 'And can I pay for it in bitcoin?';
    const conversation = [
      { role: 'user', content: question },
      { role: 'assistant', content: 'Delivery takes a few days.' },
    ];
    expect(((await (await visitor('/api/v1/query', { query: followUp, conversation })).json()) as { grounded: boolean }).grounded).toBe(false);
    await page.reload();
    const bitcoin = page.getByTestId('unanswered').getByRole('listitem').filter({ hasText: followUp });
    expect(await bitcoin.getByTestId('asked-after').textContent()).toBe(`Asked as a follow-up to “${question}”`);
    expect(await bitcoin.getByRole('button', { name: 'Try in Playground' }).count()).toBe(1);
    // Feedback sent with the turns is listed the same way; from there the Playground asks the earlier question, then the follow-up.
    expect((await visitor('/api/v1/feedback', { query: followUp, conversation, helpful: false })).status).toBe(204);
    await page.reload();
    const doubted = list.getByRole('listitem').filter({ hasText: followUp });
    expect(await doubted.getByTestId('asked-after').textContent()).toBe(`Asked as a follow-up to “${question}”`);
    await doubted.getByRole('button', { name: 'Try in Playground' }).click();
    await page.waitForURL(`**/dashboard/kb/${ragId}/playground`);
    await page.getByTestId('conversation').getByText('Asked as a follow-up to 2 earlier turns').waitFor();
    expect(await page.getByRole('textbox', { name: 'Question' }).inputValue()).toBe(followUp);
    await expect.poll(() => page.getByTestId('answer').getAttribute('aria-busy')).toBe('false');
    await page.goto(`/dashboard/kb/${ragId}/usage`);
    // A record for it starts with the question it followed: the follow-up alone would make a poor record's question.
    await bitcoin.getByRole('button', { name: 'Add a record for this' }).click();
    await page.waitForURL(/\/knowledge$/);
    expect(await page.getByRole('textbox', { name: 'Text', exact: true }).inputValue()).toBe(`Q: ${question} ${followUp}\nA: `);
    await page.goto(`/dashboard/kb/${ragId}/usage`);
    await bitcoin.getByRole('button', { name: `Dismiss “${followUp}”` }).click();
    await bitcoin.waitFor({ state: 'detached' });
    await doubted.getByRole('button', { name: `Dismiss feedback on “${followUp}”` }).click();
    await doubted.waitFor({ state: 'detached' });
    const listed = (await (await owner('GET', `/api/v1/knowledge-bases/${ragId}/usage`)).json()) as { unanswered: { question: string }[]; feedback: { question: string }[] };
    expect(listed.unanswered.map((u) => u.question)).not.toContain(followUp);
    expect(listed.feedback.map((f) => f.question)).not.toContain(followUp);

    // A question with markup in it is shown as the text it is.
    const markup = 'Is <b>x</b> in stock?';
    expect((await visitor('/api/v1/feedback', { query: markup, helpful: false })).status).toBe(204);
    expect((await report()).feedback.map((f) => f.question)).toContain(markup);
    await page.reload();
    await list.getByText(markup, { exact: true }).waitFor();
    expect(await list.locator('b').count()).toBe(0);
    expect(await total('Not helpful')).toBe('3');
    await axe(page, 'usage with feedback');

    // Dismiss: off the page and off the server's report; the markup one stays (the tabs' axe run below sees a filled list).
    await delivery.getByRole('button', { name: `Dismiss feedback on “${question}”` }).click();
    await delivery.waitFor({ state: 'detached' });
    expect((await report()).feedback.map((f) => f.question)).toEqual([markup]);
    await list.getByText(markup, { exact: true }).waitFor();

    expect((await owner('DELETE', `/api/v1/knowledge-bases/${ragId}/keys/${key.keyId}`)).status).toBe(204);
  }, 120_000);

  it('a refusal in the Playground names the words no record uses, and opens a synonym or a record for it; starter questions are asked with a click', async () => {
    expect(ragId).not.toBe('');
    await page.goto(`/dashboard/kb/${ragId}/playground`);
    const question = page.getByRole('textbox', { name: 'Question' });
    const help = page.getByTestId('refusal-help');
    const refusal = 'Do you sell gift cards for horses?';
    await question.fill(refusal);
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByText('Not in your records').waitFor();
    await help.getByText(/^No record uses: .*horses/).waitFor();
    const marked = await help.locator('mark').allTextContents();
    expect(marked).toContain('horses');
    await axe(page, 'playground refusal');
    await page.screenshot({ path: path.join(shots, 'playground-refusal-desktop.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await axe(page, 'playground refusal (dark)');
    await page.emulateMedia({ colorScheme: 'light' });
    await help.getByRole('button', { name: 'Add a synonym' }).click();
    await page.waitForURL(/\/knowledge$/);
    await expect.poll(() => page.getByRole('textbox', { name: 'Words that mean the same' }).inputValue()).toBe(`${marked[0]}, `);

    // An answer has nothing beside it, and the next refusal replaces it.
    await page.getByRole('link', { name: 'Playground', exact: true }).click();
    await question.fill('How long does delivery take?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByText('Grounded in your records').waitFor();
    expect(await help.isHidden()).toBe(true);
    await question.fill(refusal);
    await page.getByRole('button', { name: 'Ask' }).click();
    await help.getByText(/^No record uses: .*horses/).waitFor();
    await help.getByRole('button', { name: 'Add a record for this' }).click();
    await page.waitForURL(/\/knowledge$/);
    await expect.poll(() => page.getByRole('textbox', { name: 'Text', exact: true }).inputValue()).toBe(`Q: ${refusal}\nA: `);

    // The widget's starter questions (saved on the Widget tab in the first run) are asked with a click, as a visitor's would be.
    await page.getByRole('link', { name: 'Playground', exact: true }).click();
    const starters = page.getByTestId('starter-questions');
    await starters.waitFor();
    expect(await starters.getByRole('button').allInnerTexts()).toEqual(['How long does delivery take?', 'How long is the <i>warranty</i>?']);
    await starters.getByRole('button', { name: 'How long does delivery take?' }).click();
    await page.getByText('Grounded in your records').waitFor();
    expect(await question.inputValue()).toBe('How long does delivery take?');
  }, 120_000);

  it('every tab renders, passes axe, and is captured at desktop and phone sizes', async () => {
    expect(ragId).not.toBe('');
    for (const [size, viewport] of Object.entries(viewports)) {
      await page.setViewportSize(viewport);
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: 'Your knowledge bases' }).waitFor();
      await axe(page, `home (${size})`);
      await page.screenshot({ path: path.join(shots, `home-${size}.png`), fullPage: true });
      await page.goto('/dashboard/create');
      await page.getByRole('heading', { name: 'Create a knowledge base' }).waitFor();
      await axe(page, `create (${size})`);
      await page.screenshot({ path: path.join(shots, `create-${size}.png`), fullPage: true });
      for (const tab of tabs) {
        await page.goto(`/dashboard/kb/${ragId}/${tab}`);
        await page.locator(`.tabs a[aria-current="page"][href$="/${tab}"]`).waitFor();
        await page.locator('section.card').first().waitFor();
        if (tab === 'widget') {
          // The journey's key is revoked: the first visit makes a widget key in place; later visits
          // (and reloads) find it listed by the server and use it.
          if (size === 'desktop') {
            await page.getByLabel("Your website's domain").fill('shop.example.com');
            await page.getByRole('button', { name: 'Create the widget key' }).click();
          }
          await page.getByRole('radio', { name: /shop\.example\.com/ }).waitFor();
          expect(await page.getByLabel('Embed code').inputValue()).toMatch(/data-api-key="gw_live_[A-Za-z0-9]{32}"/);
          await page.frameLocator('iframe.preview').locator('h1').waitFor();
          await page.waitForTimeout(300);
        }
        if (tab === 'usage') await page.locator('svg.chart').waitFor();
        await axe(page, `${tab} (${size})`);
        await page.screenshot({ path: path.join(shots, `${tab}-${size}.png`), fullPage: true });
      }
    }
    // Dark mode: contrast is checked by axe too.
    await page.setViewportSize(viewports.desktop);
    await page.emulateMedia({ colorScheme: 'dark' });
    for (const tab of ['knowledge', 'usage'] as const) {
      await page.goto(`/dashboard/kb/${ragId}/${tab}`);
      await page.locator('section.card').first().waitFor();
      await axe(page, `${tab} (dark)`);
      await page.screenshot({ path: path.join(shots, `${tab}-dark-desktop.png`), fullPage: true });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }, 600_000);

  it('the sign-in page passes axe signed out, on a phone too', async () => {
    for (const [size, viewport] of Object.entries(viewports)) {
      const ctx = await newContext(viewport);
      const p = watch(await ctx.newPage());
      await p.goto('/dashboard');
      await p.getByRole('heading', { name: 'Sign in to Groundwork' }).waitFor();
      await axe(p, `sign-in (${size})`);
      await p.screenshot({ path: path.join(shots, `sign-in-${size}.png`) });
      await p.goto('/');
      await axe(p, `home page / (${size})`);
      await p.screenshot({ path: path.join(shots, `landing-${size}.png`), fullPage: true });
      await ctx.close();
    }
  }, 180_000);

  it('keeps every request on the server origin, and pages log no errors (CSP included)', () => {
    expect(offOrigin).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
