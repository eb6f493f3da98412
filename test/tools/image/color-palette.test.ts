import { describe, expect, it } from 'vitest';
import { medianCut } from '../../../src/tools/color-palette/median-cut.js';
import { meta } from '../../../src/tools/color-palette/meta.js';
import { run } from '../../../src/tools/color-palette/server.js';
import { base64, makeImage } from './fixtures.js';
import { apiRefusal, describeExamples, describeFileRefusals } from './image-support.js';

describeExamples(meta, run);
describeFileRefusals(meta, run);

function rgba(...colours: [number, number, number, number, number][]): Uint8Array {
  return new Uint8Array(colours.flatMap(([r, g, b, a, times]) => Array.from({ length: times }, () => [r, g, b, a]).flat()));
}

describe('median cut', () => {
  it('gives one colour for a mono image, whatever the count', () => {
    expect(medianCut(rgba([10, 20, 30, 255, 50]), 8)).toEqual([{ hex: '#0a141e', rgb: [10, 20, 30], share: 1 }]);
  });

  it('orders by share and ignores transparent pixels', () => {
    const colours = medianCut(rgba([255, 0, 0, 255, 30], [0, 0, 255, 255, 10], [0, 255, 0, 0, 500]), 4);
    expect(colours.map((c) => [c.hex, c.share])).toEqual([
      ['#ff0000', 0.75],
      ['#0000ff', 0.25],
    ]);
  });

  it('returns nothing for a transparent image', () => {
    expect(medianCut(rgba([1, 2, 3, 0, 10]), 4)).toEqual([]);
  });

  it('never returns more than asked, and shares add up to 1', () => {
    const noisy = new Uint8Array(4 * 5000).map((_, i) => (i % 4 === 3 ? 255 : (i * 7919) % 256));
    const colours = medianCut(noisy, 5);
    expect(colours).toHaveLength(5);
    expect(colours.reduce((sum, c) => sum + c.share, 0)).toBeCloseTo(1, 3);
  });
});

describe('color-palette', () => {
  it('downscales big images before counting', async () => {
    const output = await run({ image: await makeImage(1200, 800, 'png', [0, 128, 0, 255], [255, 255, 0, 255]), count: 3 });
    expect(output).toMatchObject({ width: 1200, height: 800 });
    expect(output.colors.slice(0, 2).map((c) => c.hex).sort()).toEqual(['#008000', '#ffff00']);
  });

  it('warns about a transparent image', async () => {
    const output = await run({ image: await makeImage(8, 8, 'png', [0, 0, 0, 0]) });
    expect(output.colors).toEqual([]);
    expect(output.warnings?.[0]).toMatch(/transparent/);
  });

  it.each([1, 13, 2.5])('API refuses count %s', async (count) => {
    expect(await apiRefusal('color-palette', { image: base64(await makeImage(4, 4)), count })).toMatchObject({ code: 'validation_failed' });
  });
});
