import { describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/color-convert/core.js';
import { meta } from '../../../src/tools/color-convert/meta.js';
import { toolRefusal } from '../support.js';
import { closeThreadsAfterAll, expectFirstExampleOverApi, itRunsExamples, runnerRefusal } from './helpers.js';

closeThreadsAfterAll();

describe('color-convert', () => {
  itRunsExamples(meta, run);

  it.each([['#000'], ['000000'], ['rgb(0, 0, 0)'], ['hsl(0 0% 0%)'], ['hwb(0 0% 100%)'], ['black'], ['  BLACK  ']])('reads %s', (color) => {
    expect(run({ color })).toMatchObject({ hex: '#000000', name: 'black', nameIsExact: true });
  });

  it('gives 21:1 for black on white', () => {
    expect(run({ color: 'black', against: 'white' }).contrast).toMatchObject({ ratio: 21, aaa: true });
  });

  it('warns that contrast ignores transparency', () => {
    expect(run({ color: '#0008', against: '#fff' }).warnings).toHaveLength(1);
  });

  it.each([['color', { color: 'notacolor' }], ['color', { color: '' }], ['against', { color: 'red', against: 'rgb(300' }]])('refuses a bad %s', async (field, input) => {
    expect((await toolRefusal(() => run(input))).details.field).toBe(field);
  });

  it('runs over the API', async () => {
    await expectFirstExampleOverApi(meta);
    expect((await runnerRefusal('color-convert', { color: '#12345' })).code).toBe('validation_failed');
  });
});
