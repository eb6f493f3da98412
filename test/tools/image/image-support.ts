/**
 * Checks every image tool shares: its examples through sharp (server.ts) with the output file
 * really being what the summary says, and the same refusals of files that are not usable images.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { ToolMeta } from '../../../src/tools/types.js';
import { exampleCases, exampleInput, expectExampleOutput, toolRefusal } from '../support.js';
import { avifStart, heicStart, inspect, pngHeaderOnly } from './fixtures.js';

interface FileSummary {
  file?: { data: Uint8Array };
  width?: number;
  height?: number;
  format?: string;
  bytes?: number;
}

type Run = (input: never) => Promise<unknown> | unknown;

/**
 * Runs each example on the server implementation (its input valid for the schema, as the API
 * requires); a `file` in the output must really be the image its summary describes.
 */
export function describeExamples(meta: ToolMeta, run: Run): void {
  const validate = new Ajv({ strict: false }).compile(meta.inputSchema);
  describe(`${meta.id} examples (server)`, () => {
    it.each(exampleCases(meta))('%s', async (_title, example) => {
      expect(validate(structuredClone(example.input)), JSON.stringify(validate.errors)).toBe(true);
      const output = (await run(exampleInput(meta, example))) as FileSummary;
      expectExampleOutput(example, output);
      if (output.file) {
        expect(await inspect(output.file.data)).toMatchObject({ width: output.width, height: output.height, format: output.format });
        expect(output.bytes).toBe(output.file.data.length);
      }
    });
  });
}

/**
 * Files every image tool refuses, with the refusal's kind (undefined = plain 422). `decodes: false`
 * for tools that never decode pixels, which cannot notice missing pixel data.
 */
export function describeFileRefusals(meta: ToolMeta, run: Run, options: Record<string, unknown> = {}, { field = 'image', decodes = true } = {}): void {
  const cases: [string, Uint8Array, string | undefined][] = [
    ['a 60-megapixel header', pngHeaderOnly(10_000, 6_000), 'too_large'],
    ['HEIC', heicStart, 'unsupported_type'],
    ['AVIF', avifStart, 'unsupported_type'],
    ['text', new TextEncoder().encode('hello, not an image'), 'unsupported_type'],
    ['an empty file', new Uint8Array(), undefined],
      ['a GIF header without a size', new TextEncoder().encode('GIF89a'), undefined],
  ];
  if (decodes) cases.push(['a PNG without pixel data', pngHeaderOnly(8, 8), undefined]);
  describe(`${meta.id} refuses unusable files`, () => {
    it.each(cases)('%s', async (_what, image, kind) => {
      const error = await toolRefusal(() => run({ ...options, [field]: image } as never));
      expect(error.details.field).toBe(field);
      expect(error.details.kind).toBe(kind);
      if (kind === 'unsupported_type') expect(error.message).toMatch(/Supported: PNG, JPEG, WebP and GIF/);
    });
  });
}

export { apiRefusal } from '../support.js';
