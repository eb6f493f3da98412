import { describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/lorem-ipsum/core.js';
import { meta } from '../../../src/tools/lorem-ipsum/meta.js';
import { closeThreadsAfterAll, expectFirstExampleOverApi, itRunsExamples, runnerRefusal } from './helpers.js';

closeThreadsAfterAll();

describe('lorem-ipsum', () => {
  itRunsExamples(meta, run);

  it('repeats with a seed and varies without one', () => {
    expect(run({ count: 2, seed: 9 }).result).toBe(run({ count: 2, seed: 9 }).result);
    expect(run({ count: 2, seed: 9 }).result).not.toBe(run({ count: 2, seed: 10 }).result);
  });

  it('makes the asked number of paragraphs, separated by line breaks', () => {
    expect(run({ unit: 'paragraphs', count: 4, seed: 1 }).result.split('\n')).toHaveLength(4);
  });

  it('clamps a count over the unit limit with a warning', () => {
    const output = run({ unit: 'sentences', count: 5000, seed: 1 });
    expect(output.count).toBe(1000);
    expect(output.warnings?.[0]).toMatch(/limited to 1000 sentences/);
  });

  it('runs over the API and refuses counts outside the schema', async () => {
    await expectFirstExampleOverApi(meta);
    expect((await runnerRefusal('lorem-ipsum', { count: 0 })).code).toBe('validation_failed');
    expect((await runnerRefusal('lorem-ipsum', { unit: 'pages' })).code).toBe('validation_failed');
  });
});
