import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/pdf-rotate/core.js';
import { meta } from '../../../src/tools/pdf-rotate/meta.js';
import { closeToolThreads } from '../../../src/tools/runner.js';
import { exampleCases, exampleInput, expectExampleOutput } from '../support.js';
import { base64, notAPdf, pdfWithText } from './fixtures.js';
import { expectApiRefusal, expectRefused, itRefusesBadPdfs } from './refusal.js';

afterAll(() => closeToolThreads());

async function rotationsOf(bytes: Uint8Array): Promise<number[]> {
  return (await PDFDocument.load(bytes)).getPages().map((page) => page.getRotation().angle);
}

describe('pdf-rotate examples', () => {
  it.each(exampleCases(meta))('%s', async (_title, example) => {
    const output = await run(exampleInput(meta, example));
    expectExampleOutput(example, output);
    expect(await rotationsOf(output.file.data)).toEqual(output.rotations);
  });
});

describe('pdf-rotate', () => {
  it('adds to the rotation a page already has, and wraps at 360', async () => {
    const once = await run({ file: await pdfWithText(['a', 'b']), angle: 270 });
    const twice = await run({ file: once.file.data, angle: 180, pages: '1' });
    expect(twice.rotations).toEqual([90, 270]);
    expect(await rotationsOf(twice.file.data)).toEqual([90, 270]);
  });

  it('turns counter-clockwise with -90', async () => {
    expect((await run({ file: await pdfWithText(['a']), angle: -90 })).rotations).toEqual([270]);
  });

  it('refuses angles that are not multiples of 90', async () => {
    await expectRefused(async () => run({ file: await pdfWithText(['a']), angle: 45 }), 'angle', undefined, /multiples of 90/);
  });

  it('refuses pages that do not exist', async () => {
    await expectRefused(async () => run({ file: await pdfWithText(['a', 'b']), pages: '3' }), 'pages', undefined, /^Page 3 does not exist: the PDF has 2 pages\.$/);
  });

  itRefusesBadPdfs((file) => run({ file }));

  it('refuses through the API an angle outside the list, and a GIF', async () => {
    const file = base64(await pdfWithText(['a']));
    await expectApiRefusal('pdf-rotate', { file, angle: 45 }, 'validation_failed', 422);
    await expectApiRefusal('pdf-rotate', { file: base64(notAPdf) }, 'unsupported_media_type', 415);
  });
});
