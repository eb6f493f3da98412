/**
 * Follow-up questions in the dashboard's Playground, in Debian's Chromium:
 * like the widget, it sends the conversation's recent turns with each
 * question, shows which earlier turns an answer was asked with, and its
 * "Clear conversation" button starts afresh.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { firstQuestion, followUp, followUpRecords } from '../query/follow-up-fixtures.js';
import { createKb, createKey, uploadFile } from '../query/helpers.js';
import { chromium, describeIf } from '../support/requirements.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';
import { buildWeb, launchChromium, screenshot } from './support.js';

interface SentBody {
  ragId: string;
  query: string;
  conversation?: { role: string; content: string }[];
}

describeIf(chromium, 'Playground conversation in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let ragId = '';
  let apiKey = '';
  const sent: SentBody[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await buildWeb();
    [server, browser] = await Promise.all([startServer({ QUERY_RATE_PER_MINUTE: '0', QUERY_QUOTA_PER_DAY: '0' }), launchChromium()]);
    const alice = await signedInClient(server.baseUrl);
    ragId = await createKb(alice, 'Shop Helper');
    for (const [name, text] of Object.entries(followUpRecords)) await uploadFile(alice, ragId, name, text);
    apiKey = (await createKey(alice, ragId, [new URL(server.baseUrl).hostname])).apiKey;

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
      if (request.method() === 'POST' && request.url().endsWith('/api/v1/query/stream')) sent.push(JSON.parse(request.postData() ?? '{}') as SentBody);
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

  it('sends the earlier turns with a follow-up, shows them, and clears them', async () => {
    await page.goto(`/dashboard/kb/${ragId}/playground`);
    await page.getByLabel('Query key').fill(apiKey);
    const clear = page.getByRole('button', { name: 'Clear conversation' });
    expect(await clear.isVisible()).toBe(true);
    expect(await clear.isDisabled()).toBe(true);

    await ask(firstQuestion);
    await expect.poll(() => page.getByTestId('answer').textContent()).toContain('including Austria');
    expect(sent.at(-1)).toEqual({ ragId, query: firstQuestion });
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
    expect(sent.at(-1)).toEqual({ ragId, query: followUp });
    expect(pageErrors).toEqual([]);
  });
});
