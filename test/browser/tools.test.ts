/**
 * Every utility page in Debian's Chromium: `/tools` lists and searches the catalogue; each
 * `/tools/{id}` opens with its first example filled in, runs it in the browser and shows the
 * example's output; no request ever leaves the site's origin (CDN defaults of pdf.js or
 * tesseract would show up here), and the pages pass axe.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { toolCatalogue } from '../../src/tools/registry.js';
import type { ToolMeta } from '../../src/tools/types.js';
import { fieldLabel } from '../../src/web/tools/labels.js';
import { chromium, describeIf } from '../support/requirements.js';
import { screenshot } from './support.js';
import { runTool, toolPages } from './tool-pages.js';

/** Tools whose first example cannot finish in a headless browser, with the message they must show instead. */
const expectedRefusals: Record<string, RegExp> = {
  // Headless Chromium has no speech voices.
  'text-to-speech': /voice/i,
};

describeIf(chromium, 'utility pages in Chromium', () => {
  const pages = toolPages();
  const open = (path: string) => pages.open(path);

  it('lists every tool by group and filters as you type', async () => {
    const page = await open('/tools');
    const links = await page.locator('.tool-card a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(links.sort()).toEqual(toolCatalogue.map((m) => `/tools/${m.id}`).sort());
    expect(links.length).toBeGreaterThanOrEqual(45);
    for (const group of ['Developer', 'PDF', 'Image', 'AI and text analysis']) await expect(page.getByRole('heading', { name: group, level: 2 }).count()).resolves.toBe(1);
    await page.fill('#tool-search', 'pdf merge');
    const visible = await page.locator('.tool-card:visible a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(visible).toContain('/tools/pdf-merge');
    expect(visible.length).toBeLessThan(5);
    await page.fill('#tool-search', 'zzzz-no-such-tool');
    await expect(page.locator('.tool-card:visible').count()).resolves.toBe(0);
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    await screenshot(page, 'tools-catalogue');
    await page.close();
  });

  async function checkExample(page: Page, meta: ToolMeta): Promise<void> {
    const example = meta.examples[0];
    if (!example) throw new Error(`${meta.id} has no example`);
    await expect(page.locator('#privacy-note').textContent()).resolves.toMatch(/never leave your device/);
    const state = await runTool(page);
    const text = (await page.locator('#tool-output').innerText()).trim();
    const refusal = expectedRefusals[meta.id];
    if (refusal) {
      expect(state, text).toBe('error');
      expect(text).toMatch(refusal);
      return;
    }
    expect(state, `${meta.id}: ${text}`).toBe('done');
    const expected = (example.output ?? example.outputMatches ?? {}) as Record<string, unknown>;
    if (typeof expected.result === 'string') {
      await expect(page.locator('textarea.result-text').inputValue()).resolves.toBe(expected.result);
    }
    const isFile = (v: unknown): boolean => !!v && typeof v === 'object' && typeof (v as { type?: unknown }).type === 'string' && String((v as { type: string }).type).includes('/');
    for (const [key, value] of Object.entries(expected)) {
      if (key === 'result' || key === 'warnings') continue;
      if (key === 'html') {
        // Shown rendered, in a sandboxed frame.
        await expect(page.locator('.tool-output iframe').getAttribute('srcdoc')).resolves.toBe(value);
      } else if (value === null || typeof value !== 'object') {
        const dd = page.locator(`.tool-output dt:text-is("${fieldLabel(key)}") + dd`);
        await expect(dd.innerText(), `${meta.id}: ${key}`).resolves.toContain(value === null ? '—' : String(value));
      } else if (Array.isArray(value) && value.length > 0 && value.every(isFile)) {
        await expect(page.locator('.tool-output .files a[download]').count(), `${meta.id}: files`).resolves.toBeGreaterThanOrEqual(value.length);
      } else if (isFile(value)) {
        await expect(page.locator('.tool-output .files a[download]').count(), `${meta.id}: file`).resolves.toBeGreaterThanOrEqual(1);
      } else {
        // Nested values are shown as JSON text.
        const dd = page.locator(`.tool-output dt:text-is("${fieldLabel(key)}") + dd`);
        await expect(dd.count(), `${meta.id}: ${key}`).resolves.toBe(1);
      }
    }
  }

  it.each(toolCatalogue.map((m) => [m.id, m] as const))('%s: runs its example in the page', async (id, meta) => {
    const page = await open(`/tools/${id}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(meta.name);
    await checkExample(page, meta);
    await page.close();
  }, 120_000);

  // One page per kind of control: text areas and menus, file pickers (several files), check boxes and numbers, a result with an image.
  it.each(['json-format', 'pdf-merge', 'image-resize', 'qr-code'])('%s: the page passes axe after a run, at desktop and phone widths', async (id) => {
    const page = await open(`/tools/${id}`);
    expect(await runTool(page)).toBe('done');
    for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
      await page.setViewportSize(viewport);
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.target}`)).toEqual([]);
      await page.evaluate('window.scrollTo(0, 0)');
      await screenshot(page, `tools-${id}-${viewport.width}`);
    }
    await page.close();
  }, 120_000);

  it('sent no request anywhere but the site itself, and no page threw', () => {
    expect(pages.strays).toEqual([]);
    expect(pages.problems).toEqual([]);
  });
});
