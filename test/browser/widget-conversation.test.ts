/**
 * Follow-up questions in the chat widget, in Debian's Chromium: the widget
 * keeps the open page's questions and answers in memory and sends the last
 * 10 turns (each at most 2,000 characters, answers without citation markers)
 * with every question; the server receives them and hands them to the
 * answerer. A reload, or another knowledge base's widget, starts afresh.
 *
 * The last test ("answers the follow-up from the shipping record") waits on
 * the lead's `contextualQuery` (src/knowledge/answering/follow-up.ts).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { ExtractiveAnswerer } from '../../src/knowledge/query/extractive-answerer.js';
import { SMALL_TALK } from '../../src/knowledge/language/small-talk-phrases.js';
import { firstQuestion, followUp, followUpRecords } from '../query/follow-up-fixtures.js';
import { createKb, createKey, faqMarkdown, uploadFile } from '../query/helpers.js';
import { chromium, describeIf } from '../support/requirements.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';
import { launchChromium, serveStatic, type StaticSite, inShadow } from './support.js';

interface Turn {
  role: string;
  content: string;
}
interface SentBody {
  ragId: string;
  query: string;
  conversation?: Turn[];
}

describeIf(chromium, 'chat widget conversation in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let site: StaticSite;
  let context: BrowserContext | undefined;
  const pages: Record<string, string> = {};
  const shop = { ragId: '', apiKey: '' };
  const other = { ragId: '', apiKey: '' };
  /** What the server's answerer was given, per streamed question (the built-in answerer makes a streamed answer whole). */
  const complete = vi.spyOn(ExtractiveAnswerer.prototype, 'complete');

  const snippet = (target: { ragId: string; apiKey: string }) =>
    `<script src="${server.baseUrl}/widget.js" data-rag-id="${target.ragId}" data-api-key="${target.apiKey}" async></script>`;
  const page = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host page</title></head><body><main><h1>Shop</h1></main>${body}</body></html>`;

  /** Opens a host page and records the body of every question the widget sends. */
  async function open(path: string): Promise<{ p: Page; sent: SentBody[] }> {
    context ??= await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const p = await context.newPage();
    const sent: SentBody[] = [];
    p.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/v1/query/stream')) sent.push(JSON.parse(request.postData() ?? '{}') as SentBody);
    });
    await p.goto(`http://localhost:${site.port}${path}`);
    await p.waitForFunction(inShadow("root.querySelector('.l') !== null"));
    await p.getByRole('button', { name: 'Open chat' }).click();
    return { p, sent };
  }

  /** Asks through the text box and waits until the answer is complete; returns its text. */
  async function ask(p: Page, question: string): Promise<string> {
    const before = (await p.evaluate(inShadow("root.querySelectorAll('.g .m.u').length"))) as number;
    await p.locator('groundwork-chat textarea').fill(question);
    await p.keyboard.press('Enter');
    await p.waitForFunction(
      inShadow(`root.querySelectorAll('.g .m.u').length === ${before + 1} && !root.querySelector('.g .m:not(.u):last-child').hasAttribute('aria-busy')`),
    );
    return p.locator('groundwork-chat .g .m:not(.u)').last().innerText();
  }

  beforeAll(async () => {
    let launched: Browser | undefined;
    [server, launched] = await Promise.all([
      startServer({ QUERY_RATE_PER_MINUTE: '0', QUERY_QUOTA_PER_DAY: '0', QUERY_CACHE_TTL_SECONDS: '0' }),
      launchChromium(),
      build({ configFile: 'vite.widget.config.ts', logLevel: 'warn' }),
    ]);
    browser = launched;
    site = await serveStatic(() => pages);
    const alice = await signedInClient(server.baseUrl);
    shop.ragId = await createKb(alice, 'Shop Helper');
    for (const [name, text] of Object.entries(followUpRecords)) await uploadFile(alice, shop.ragId, name, text);
    shop.apiKey = (await createKey(alice, shop.ragId, ['localhost'])).apiKey;
    other.ragId = await createKb(alice, 'Bike Helper');
    await uploadFile(alice, other.ragId, 'faq.md', faqMarkdown);
    other.apiKey = (await createKey(alice, other.ragId, ['localhost'])).apiKey;
    pages['/'] = page(snippet(shop));
    pages['/other.html'] = page(snippet(other));
  }, 120_000);

  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  afterAll(async () => {
    complete.mockRestore();
    await browser?.close();
    await site?.close();
    await server?.stop();
  });

  it('sends the previous turns with the second question, and the server hands them to the answerer', async () => {
    const { p, sent } = await open('/');
    const firstAnswer = await ask(p, firstQuestion);
    expect(firstAnswer).toMatch(/We ship to every EU country, including Austria/);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toEqual({ ragId: shop.ragId, query: firstQuestion });

    await ask(p, followUp);
    expect(sent).toHaveLength(2);
    const conversation = sent[1]?.conversation ?? [];
    expect(sent[1]?.query).toBe(followUp);
    expect(conversation.map((t) => t.role)).toEqual(['user', 'assistant']);
    expect(conversation[0]?.content).toBe(firstQuestion);
    expect(conversation[1]?.content).toMatch(/including Austria/);
    expect(conversation[1]?.content, 'citation markers are left out').not.toMatch(/\[\d+\]/);

    const received = complete.mock.calls.at(-1)?.[0];
    expect(received?.query).toBe(followUp);
    expect(received?.conversation).toEqual(conversation);
  });

  it('sends only the last 10 turns, each clipped to 2,000 characters; a reload or another knowledge base starts afresh', async () => {
    const { p, sent } = await open('/');
    const long = `Opening hours? ${'please '.repeat(450)}`.trim();
    expect(long.length).toBeGreaterThan(3000);
    const questions = [long, 'Can I return an item?', 'Do you repair frames?', 'When is the showroom open?', 'Do you ship to Austria?', 'Refund?'];
    for (const question of questions) await ask(p, question);
    // Six answered questions before the seventh: twelve turns, of which the last ten travel.
    await ask(p, 'And on Sundays?');
    const last = sent.at(-1)?.conversation ?? [];
    expect(last).toHaveLength(10);
    expect(last[0]).toEqual({ role: 'user', content: 'Can I return an item?' });
    expect(last.at(-2)).toEqual({ role: 'user', content: 'Refund?' });
    expect(last.at(-1)?.role).toBe('assistant');
    // The long question, while it was still among the last ten, went clipped.
    expect(sent[1]?.conversation?.[0]).toEqual({ role: 'user', content: long.slice(0, 2000).trim() });
    for (const body of sent) for (const turn of body.conversation ?? []) expect(turn.content.length).toBeLessThanOrEqual(2000);

    // Another knowledge base's widget (another page) has its own, empty, conversation.
    const elsewhere = await open('/other.html');
    await ask(elsewhere.p, 'Where do orders ship from?');
    expect(elsewhere.sent).toEqual([{ ragId: other.ragId, query: 'Where do orders ship from?' }]);

    // A reload starts a new conversation.
    await p.reload();
    await p.waitForFunction(inShadow("root.querySelector('.l') !== null"));
    await p.getByRole('button', { name: 'Open chat' }).click();
    await ask(p, 'Can I return an item?');
    expect(sent.at(-1)).toEqual({ ragId: shop.ragId, query: 'Can I return an item?' });
  });

  it('answers the follow-up from the shipping record [needs contextualQuery]', async () => {
    const { p } = await open('/');
    await ask(p, firstQuestion);
    const text = await ask(p, followUp);
    expect(text).toMatch(/three to five working days/);
    expect(text).not.toMatch(/two weeks/);
    await p.locator('groundwork-chat .g .m:not(.u)').last().locator('summary').first().waitFor();
    expect(await p.locator('groundwork-chat .g .m:not(.u)').last().locator('summary').first().innerText()).toBe('[1] Shipping'); // the record's title (its heading)
  });

  it('replies to small talk without citing, and a follow-up after "thanks" still continues the question', async () => {
    const { p } = await open('/');
    expect(await ask(p, 'Hi there!')).toBe(SMALL_TALK.en?.replies.greeting);
    const reply = p.locator('groundwork-chat .g .m:not(.u)').last();
    expect(await reply.locator('summary').count(), 'small talk cites nothing').toBe(0);
    await ask(p, firstQuestion);
    expect(await ask(p, 'Thanks!')).toBe(SMALL_TALK.en?.replies.thanks);
    const text = await ask(p, followUp);
    expect(text).toMatch(/three to five working days/);
  });
});
