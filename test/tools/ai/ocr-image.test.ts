import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../../../src/tools/runner.js';
import { meta } from '../../../src/tools/ocr-image/meta.js';
import { run } from '../../../src/tools/ocr-image/server.js';
import { exampleCases, exampleInput, expectExampleOutput, toolRefusal } from '../support.js';
import { startServer, type TestServer } from '../../support/server.js';
import { apiRefusal } from '../support.js';

/** A white image with black text, rendered from SVG so the expected words are known. */
async function textImage(lines: string[], format: 'png' | 'jpeg' = 'png'): Promise<Uint8Array> {
  const height = 90 + 70 * (lines.length - 1);
  const text = lines.map((line, i) => `<text x="20" y="${64 + 70 * i}" font-family="DejaVu Sans, sans-serif" font-size="48" fill="black">${line}</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="720" height="${height}"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg))[format]().toBuffer());
}

/** A PNG signature and IHDR claiming the given size, with no pixel data. */
function pngHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 2, 0, 0, 0], 24);
  return bytes;
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('ocr-image examples', () => {
  it.each(exampleCases(meta))('%s', async (_title, example) => {
    expectExampleOutput(example, await run(exampleInput(meta, example)));
  });
});

describe('ocr-image', () => {
  it('reads two lines of rendered text from a PNG, reporting progress', async () => {
    const progress: number[] = [];
    const output = await run({ image: await textImage(['Invoice number 4821', 'Total due today']) }, { onProgress: (f) => progress.push(f) });
    expect(output.result.split('\n')).toEqual(['Invoice number 4821', 'Total due today']);
    expect(output).toMatchObject({ words: 6, lines: 2, width: 720, height: 160 });
    expect(output.confidence).toBeGreaterThan(50);
    expect(progress.at(-1)).toBe(1);
  });

  it('reads a JPEG too', async () => {
    const output = await run({ image: await textImage(['Groundwork reads JPEG'], 'jpeg') });
    expect(output.result).toBe('Groundwork reads JPEG');
  });

  it('warns when an image holds no text', async () => {
    const blank = new Uint8Array(await sharp({ create: { width: 200, height: 100, channels: 3, background: '#ffffff' } }).png().toBuffer());
    const output = await run({ image: blank });
    expect(output).toMatchObject({ result: '', words: 0, lines: 0 });
    expect(output.warnings?.[0]).toMatch(/No text was found/);
  });

  it('refuses other file types by content, huge images by header, and damaged images', async () => {
    const gif = new TextEncoder().encode('GIF89a\x01\x00\x01\x00');
    expect((await toolRefusal(() => run({ image: gif }))).details).toMatchObject({ field: 'image', kind: 'unsupported_type' });
    expect((await toolRefusal(() => run({ image: new Uint8Array() }))).details.kind).toBe('unsupported_type');
    expect((await toolRefusal(() => run({ image: pngHeader(10_000, 6_000) }))).details).toMatchObject({ kind: 'too_large' });
    const jpegHeader = new Uint8Array([0xff, 0xd8, 0xff, 0xc0, 0, 17, 8, 0x1f, 0x40, 0x1f, 0x40, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
    expect((await toolRefusal(() => run({ image: jpegHeader }))).details.kind).toBe('too_large');
    const png = await textImage(['broken']);
    const damaged = new Uint8Array([...png.subarray(0, 40), ...new Uint8Array(200)]);
    const error = await toolRefusal(() => run({ image: damaged }));
    expect(error.details).toEqual({ field: 'image' });
    expect(error.message).toMatch(/could not be read/);
  });

  it('runs through the API, with 415, 413 and 422 for bad files', async () => {
    const output = await runTool('ocr-image', { image: base64(await textImage(['API text'])) });
    expect(output).toMatchObject({ result: 'API text' });
    expect((await apiRefusal('ocr-image', { image: base64(new TextEncoder().encode('%PDF-1.7 not an image')) })).code).toBe('unsupported_media_type');
    expect((await apiRefusal('ocr-image', { image: base64(pngHeader(8_000, 8_000)) })).code).toBe('payload_too_large');
    expect((await apiRefusal('ocr-image', { image: 'not base64!' })).code).toBe('validation_failed');
    expect((await apiRefusal('ocr-image', { image: base64(pngHeader(10, 10)) })).code).toBe('validation_failed');
  });
});

describe('OCR assets served from our origin', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each([
    ['worker.min.js', 'text/javascript'],
    ['core/tesseract-core-simd-lstm.wasm.js', 'text/javascript'],
    ['core/tesseract-core-relaxedsimd-lstm.wasm.js', 'text/javascript'],
    ['core/tesseract-core-lstm.wasm', 'application/wasm'],
    ['lang/eng.traineddata.gz', 'application/gzip'],
  ])('serves %s as %s with a long cache lifetime', async (file, type) => {
    const response = await fetch(`${server.baseUrl}/tools/assets/ocr/${file}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain(type);
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d{6,}/);
    expect(response.headers.get('content-encoding')).toBeNull();
    const body = new Uint8Array(await response.arrayBuffer());
    expect(body.length).toBe(Number(response.headers.get('content-length')));
    if (file.endsWith('.gz')) expect([body[0], body[1]]).toEqual([0x1f, 0x8b]);
    if (file.endsWith('.wasm')) expect([...body.subarray(0, 4)]).toEqual([0x00, 0x61, 0x73, 0x6d]);
  });

  it.each(['core/tesseract-core.wasm.js', 'core/index.js', 'core/LICENSE', 'lang/eng.traineddata', 'worker.min.js.map', 'tesseract.min.js'])(
    'answers 404 for %s, a file not on the allow-list',
    async (file) => {
      const response = await fetch(`${server.baseUrl}/tools/assets/ocr/${file}`);
      expect(response.status).toBe(404);
    },
  );

  it.each(['..%2f..%2fpackage.json', 'core/..%2f..%2f..%2fpackage.json', '%2e%2e/%2e%2e/%2e%2e/package.json', 'lang/..%5c..%5cpackage.json'])(
    'never serves a file from outside the allow-list for %s',
    async (file) => {
      // inject sends the path as written (fetch would resolve dot segments first).
      const response = await server.app.inject({ method: 'GET', url: `/tools/assets/ocr/${file}` });
      expect(response.statusCode === 404 || String(response.headers['content-type']).startsWith('text/html')).toBe(true);
      expect(response.body).not.toContain('"dependencies"');
    },
  );
});
