/**
 * The utilities people use most, end to end in Debian's Chromium with files made in the test:
 * PDF merge and split (the ZIP opened and every PDF in it checked), image convert and compress
 * in batch with the ZIP download, OCR of a rendered image, a QR code made on one page and read on
 * another, and exact token counts. Every request must stay on the site's origin.
 */
import fs from 'node:fs';
import { unzipSync } from 'fflate';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Download, Page } from 'playwright-core';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { chromium, describeIf } from '../support/requirements.js';
import { screenshot } from './support.js';
import { runTool, toolPages } from './tool-pages.js';

async function pdfWithPages(count: number, label: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= count; i++) doc.addPage([300, 200]).drawText(`${label} page ${i}`, { x: 20, y: 100, size: 18, font });
  return Buffer.from(await doc.save());
}

async function pngOf(width: number, height: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: colour } }).png().toBuffer();
}

async function bytesOf(download: Download): Promise<Buffer> {
  const file = await download.path();
  return fs.readFileSync(file);
}

describeIf(chromium, 'utilities end to end in Chromium', () => {
  const pages = toolPages();
  const open = (id: string) => pages.open(`/tools/${id}`);

  async function run(page: Page): Promise<void> {
    const state = await runTool(page);
    expect(state, await page.locator('#tool-output').innerText()).toBe('done');
  }

  async function download(page: Page, selector: string): Promise<Buffer> {
    const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
    return bytesOf(file);
  }

  it('merges two PDFs into one with every page in order', async () => {
    const page = await open('pdf-merge');
    await page.getByLabel(/^Files/).setInputFiles([
      { name: 'a.pdf', mimeType: 'application/pdf', buffer: await pdfWithPages(2, 'A') },
      { name: 'b.pdf', mimeType: 'application/pdf', buffer: await pdfWithPages(3, 'B') },
    ]);
    await run(page);
    const merged = await PDFDocument.load(await download(page, '.tool-output .files a[download]'));
    expect(merged.getPageCount()).toBe(5);
    await page.close();
  }, 120_000);

  it('splits a PDF into one file per page and offers them as a ZIP', async () => {
    const page = await open('pdf-split');
    await page.getByLabel(/^File/).setInputFiles({ name: 'four.pdf', mimeType: 'application/pdf', buffer: await pdfWithPages(4, 'S') });
    await page.getByLabel(/^Mode/).selectOption({ label: 'every-page' });
    await run(page);
    const zip = unzipSync(new Uint8Array(await download(page, 'text=/Download all/')));
    const names = Object.keys(zip);
    expect(names).toHaveLength(4);
    for (const name of names) {
      expect(name).toMatch(/\.pdf$/);
      expect((await PDFDocument.load(zip[name] as Uint8Array)).getPageCount()).toBe(1);
    }
    await page.close();
  }, 120_000);

  it('converts a batch of images to JPEG and offers them as a ZIP', async () => {
    const page = await open('image-convert');
    await page.getByLabel(/^Image/).setInputFiles([
      { name: 'red.png', mimeType: 'image/png', buffer: await pngOf(40, 30, '#ff0000') },
      { name: 'green.png', mimeType: 'image/png', buffer: await pngOf(20, 50, '#00ff00') },
      { name: 'blue.png', mimeType: 'image/png', buffer: await pngOf(64, 64, '#0000ff80') },
    ]);
    await page.getByLabel(/^To/).selectOption({ label: 'jpeg' });
    await run(page);
    await expect(page.locator('#tool-output').innerText()).resolves.toContain('3 of 3 files done');
    const zip = unzipSync(new Uint8Array(await download(page, 'text=/Download all/')));
    const sizes = await Promise.all(Object.values(zip).map(async (data) => sharp(data).metadata()));
    expect(sizes.map((m) => m.format)).toEqual(['jpeg', 'jpeg', 'jpeg']);
    expect(sizes.map((m) => `${m.width}x${m.height}`).sort()).toEqual(['20x50', '40x30', '64x64']);
    await screenshot(page, 'tools-image-convert');
    await page.close();
  }, 120_000);

  it('compresses a batch of images and offers them as a ZIP', async () => {
    const page = await open('image-compress');
    const noisy = await sharp(Buffer.from(Array.from({ length: 200 * 150 * 3 }, (_, i) => (i * 7919) % 256)), { raw: { width: 200, height: 150, channels: 3 } }).png().toBuffer();
    await page.getByLabel(/^Image/).setInputFiles([
      { name: 'noisy.png', mimeType: 'image/png', buffer: noisy },
      { name: 'flat.png', mimeType: 'image/png', buffer: await pngOf(300, 200, '#336699') },
    ]);
    await run(page);
    const zip = unzipSync(new Uint8Array(await download(page, 'text=/Download all/')));
    expect(Object.keys(zip)).toHaveLength(2);
    for (const data of Object.values(zip)) expect(['webp', 'jpeg', 'png']).toContain((await sharp(data).metadata()).format);
    await page.close();
  }, 120_000);

  it('reads the text of a rendered image with OCR, from our own origin only', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="200"><rect width="100%" height="100%" fill="white"/><text x="30" y="130" font-family="DejaVu Sans, sans-serif" font-size="96" fill="black">Groundwork OCR</text></svg>`;
    const image = await sharp(Buffer.from(svg)).png().toBuffer();
    const page = await open('ocr-image');
    await page.getByLabel(/^Image/).setInputFiles({ name: 'text.png', mimeType: 'image/png', buffer: image });
    await run(page);
    await expect(page.locator('textarea.result-text').inputValue()).resolves.toMatch(/Groundwork\s+OCR/i);
    await page.close();
  }, 150_000);

  it('makes a QR code on one page and reads it back on another', async () => {
    const text = 'https://groundwork.example/tools?qr=1&x=ünïcode';
    const maker = await open('qr-code');
    await maker.getByLabel(/^Text/).fill(text);
    await run(maker);
    const png = await download(maker, '.tool-output .files a[download$=".png"]');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    await maker.close();

    const reader = await open('qr-read');
    await reader.getByLabel(/^Image/).setInputFiles({ name: 'qr.png', mimeType: 'image/png', buffer: png });
    await run(reader);
    await expect(reader.locator('textarea.result-text').inputValue()).resolves.toBe(text);
    await reader.close();
  }, 120_000);

  it('counts tokens exactly as the OpenAI tokenizer does', async () => {
    const text = 'Groundwork answers only from your records — and cites them. 日本語もOK.';
    const page = await open('token-counter');
    await page.getByLabel(/^Text/).fill(text);
    await page.getByLabel(/^Model/).selectOption({ label: 'gpt-4o' });
    await run(page);
    await expect(page.locator('.tool-output').innerText()).resolves.toContain(String(encode(text).length));
    const tokens = page.locator('.tool-output dt:text-is("Tokens") + dd');
    await expect(tokens.innerText()).resolves.toBe(String(encode(text).length));
    await page.close();
  }, 120_000);

  it('ends a catastrophically backtracking regular expression after a second, and the page keeps working', async () => {
    const page = await open('regex-tester');
    await page.getByLabel(/^Pattern/).fill('(a+)+$');
    await page.getByLabel(/^Text/).fill(`${'a'.repeat(40)}!`);
    const started = Date.now();
    expect(await runTool(page)).toBe('error');
    expect(Date.now() - started).toBeLessThan(30_000);
    await expect(page.locator('#tool-output').innerText()).resolves.toMatch(/took longer than 1 s and was stopped/);
    // A fresh Worker takes the next run.
    await page.getByLabel(/^Pattern/).fill('b+');
    await page.getByLabel(/^Text/).fill('abbbc');
    await run(page);
    await expect(page.locator('.tool-output dt:text-is("Match count") + dd').innerText()).resolves.toBe('1');
    await page.close();
  }, 120_000);

  it('sent no request anywhere but the site itself, and no page threw', () => {
    expect(pages.strays).toEqual([]);
    expect(pages.problems).toEqual([]);
  });
});
