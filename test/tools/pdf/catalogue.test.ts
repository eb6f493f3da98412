/** Every PDF tool's metadata: data only, a schema that compiles and accepts its own examples, small examples. */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { pdfTools } from '../../../src/tools/groups/pdf.js';

describe('PDF tool metadata', () => {
  it('lists the tools in catalogue order', () => {
    expect(pdfTools.map((entry) => entry.meta.id)).toEqual([
      'pdf-merge',
      'pdf-split',
      'pdf-rotate',
      'pdf-organize',
      'pdf-compress',
      'pdf-metadata',
      'pdf-watermark',
      'pdf-page-numbers',
      'images-to-pdf',
      'pdf-text-extract',
      'pdf-to-images',
    ]);
  });

  it.each(pdfTools.map(({ meta }) => [meta.id, meta] as const))('%s', (_id, meta) => {
    expect(meta.group).toBe('pdf');
    expect(JSON.parse(JSON.stringify(meta))).toEqual(meta);
    expect(meta.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
    const validate = new Ajv({ strict: false }).compile(meta.inputSchema);
    expect(meta.examples.length).toBeGreaterThanOrEqual(2);
    for (const example of meta.examples) {
      expect(validate(structuredClone(example.input)), example.title).toBe(true);
      // Each example file stays small (Base64 inside the metadata).
      expect(JSON.stringify(example.input).length, example.title).toBeLessThan(6000);
    }
  });

  it('loads every tool’s server module, and pdf-text-extract from server.ts', async () => {
    for (const entry of pdfTools) expect(typeof (await entry.load()).run).toBe('function');
  });
});
