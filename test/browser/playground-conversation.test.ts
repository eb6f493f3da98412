/**
 * The dashboard's Playground, in Debian's Chromium: the owner asks with no
 * query key (the owner endpoint, docs/playground.md), even when the visitors'
 * quota is used up; a citation shows its record's title; retrieval scores show
 * only after "Show retrieval scores" is ticked, which the tab remembers. Like
 * the widget, it sends the conversation's recent turns with each question,
 * shows which earlier turns an answer was asked with, and its "Clear
 * conversation" button starts afresh.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { firstQuestion, followUp, followUpRecords } from '../query/follow-up-fixtures.js';
import { ask as askVisitor, createKb, createKey, uploadFile } from '../query/helpers.js';
import { chromium, describeIf } from '../support/requirements.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';
import { buildWeb, launchChromium, screenshot } from './support.js';

interface SentBody {
  query: string;
  conversation?: { role: string; content: string }[];
}

describeIf(chromium, 'Playground in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let ragId = '';
  const sent: SentBody[] = [];
  /** Query-key requests the page made: the Playground needs none. */
  const keyed: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await buildWeb();
    // The visitors' quota is one question a day, and a visitor uses it up before the owner asks.
    [server, browser] = await Promise.all([startServer({ QUERY_RATE_PER_MINUTE: '0', QUERY_QUOTA_PER_DAY: '1' }), launchChromium()]);
    const alice = await signedInClient(server.baseUrl);
    ragId = await createKb(alice, 'Shop Helper');
    for (const [name, text] of Object.entries(followUpRecords)) await uploadFile(alice, ragId, name, text);
    await uploadFile(alice, ragId, 'mugs.json', JSON.stringify([{ name: 'Blue mug', price: '12 EUR', description: 'A blue ceramic mug.' }]));
    const { apiKey } = await createKey(alice, ragId);
    expect((await askVisitor(server.baseUrl, apiKey, ragId, 'Are you open on Saturday?')).status).toBe(200);
    expect((await askVisitor(server.baseUrl, apiKey, ragId, 'Are you open on Sunday?')).status).toBe(429);

    context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 800 } });
    await context.addCookies(
      alice.cookie.split('; ').map((pair) => {
        const [name = '', value = ''] = pair.split('=');
        return { name, value, url: server.baseUrl };
      }),
    );
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/api/v1/knowledge-bases/${ragId}/playground/query/stream`)) {
        sent.push(JSON.parse(request.postData() ?? '{}') as SentBody);
      }
      if (request.headers()['x-api-key'] !== undefined || /\/api\/v1\/(query|search)/.test(request.url())) keyed.push(request.url());
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function ask(question: string): Promise<void> {
    const count = sent.length;
    await page.getByRole('textbox', { name: 'Question' }).fill(question);
    await page.getByRole('button', { name: 'Ask' }).click();
    await expect.poll(() => sent.length).toBe(count + 1);
    await page.locator('[data-testid="answer"][aria-busy="false"]').waitFor();
    await page.getByRole('button', { name: 'Ask' }).and(page.locator(':enabled')).waitFor();
  }

  it('answers with no key, shows citation titles, and scores only when asked for', async () => {
    await page.goto(`/dashboard/kb/${ragId}/playground`);
    await page.getByRole('heading', { name: 'Ask a question' }).waitFor();
    expect(await page.getByLabel('Query key').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Generate a .* key/ }).count()).toBe(0);

    await ask(firstQuestion);
    await expect.poll(() => page.getByTestId('answer').textContent()).toContain('including Austria');
    await page.getByText('Grounded in your records').waitFor();
    const first = page.getByTestId('citation').first();
    // The record's title, with its source's name as secondary text; no score yet.
    expect(await first.locator('.cite-title').textContent()).toBe('Shipping');
    expect(await first.locator('.cite-source').textContent()).toContain('shipping.md');
    expect(await page.getByTestId('score').count()).toBe(0);
    expect(await page.getByTestId('citations').textContent()).not.toMatch(/score/);

    const toggle = page.getByRole('checkbox', { name: 'Show retrieval scores' });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    await expect.poll(() => page.getByTestId('score').count()).toBe(await page.getByTestId('citation').count());
    expect(await first.getByTestId('score').textContent()).toMatch(/score \d+\.\d\d/);
    await screenshot(page, 'playground-scores-desktop');
    // The checkbox and the titled citations pass axe (no serious or critical violations).
    const violations = (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

    // Remembered for the tab's session: leaving the tab and coming back keeps it ticked.
    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    await page.getByRole('link', { name: 'Playground', exact: true }).click();
    await page.getByRole('heading', { name: 'Ask a question' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Show retrieval scores' }).isChecked()).toBe(true);
    await ask(firstQuestion);
    await expect.poll(() => page.getByTestId('score').count()).toBeGreaterThan(0);
    await page.getByRole('checkbox', { name: 'Show retrieval scores' }).uncheck();
    await expect.poll(() => page.getByTestId('score').count()).toBe(0);
    expect(await page.getByTestId('citation').first().locator('.cite-title').textContent()).toBe('Shipping');
    expect(keyed).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('sends the earlier turns with a follow-up, shows them, and clears them', async () => {
    await page.goto(`/dashboard/kb/${ragId}/playground`);
    const clear = page.getByRole('button', { name: 'Clear conversation' });
    // The page renders after its data arrives: wait for the button rather than assume it is there.
    await clear.waitFor({ state: 'visible' });
    expect(await clear.isDisabled()).toBe(true);

    await ask(firstQuestion);
    await expect.poll(() => page.getByTestId('answer').textContent()).toContain('including Austria');
    expect(sent.at(-1)).toEqual({ query: firstQuestion });
    expect(await page.getByTestId('conversation').isVisible()).toBe(false);
    expect(await clear.isEnabled()).toBe(true);

    await ask(followUp);
    const conversation = sent.at(-1)?.conversation ?? [];
    expect(sent.at(-1)?.query).toBe(followUp);
    expect(conversation).toHaveLength(2);
    expect(conversation[0]).toEqual({ role: 'user', content: firstQuestion });
    expect(conversation[1]?.role).toBe('assistant');
    expect(conversation[1]?.content).toMatch(/including Austria/);
    expect(conversation[1]?.content).not.toMatch(/\[\d+\]/);
    const history = page.getByTestId('conversation');
    expect(await history.isVisible()).toBe(true);
    expect(await history.locator('summary').innerText()).toBe('Asked as a follow-up to 2 earlier turns');
    await history.locator('summary').click();
    await screenshot(page, 'playground-conversation-desktop');

    // The third question travels with four turns; after clearing, the next with none.
    await ask('Can I return an item?');
    expect(sent.at(-1)?.conversation).toHaveLength(4);
    await clear.click();
    expect(await clear.isDisabled()).toBe(true);
    expect(await history.isVisible()).toBe(false);
    await page.getByText('Conversation cleared').waitFor();
    await ask(followUp);
    expect(sent.at(-1)).toEqual({ query: followUp });
    expect(keyed).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('beside a refusal, offers what a visitor is offered, and asks it when clicked', async () => {
    await page.goto(`/dashboard/kb/${ragId}/playground`);
    await page.getByRole('button', { name: 'Clear conversation' }).waitFor({ state: 'visible' });
    await ask('Is the blue mug dishwasher safe?');
    await page.getByText('Not in your records').waitFor();
    const offered = page.getByTestId('suggestions');
    expect(await offered.getByRole('button').allInnerTexts()).toEqual(['Blue mug']);
    expect(await page.getByTestId('refusal-help').getByText('Visitors are offered instead:').isVisible()).toBe(true);
    await offered.getByRole('button', { name: 'Blue mug' }).click();
    // Asked as a whole question, not as a follow-up to the refused one (which would be refused again).
    await expect.poll(() => sent.at(-1)).toEqual({ query: 'Blue mug' });
    await page.getByText('Grounded in your records').waitFor();
    expect(await page.getByTestId('refusal-help').isHidden()).toBe(true);
    expect(await page.getByTestId('citation').first().locator('.cite-title').innerText()).toBe('Blue mug');
    expect(pageErrors).toEqual([]);
  });
});
