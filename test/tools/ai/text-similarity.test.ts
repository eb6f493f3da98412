import { describe, expect, it } from 'vitest';
import { runTool } from '../../../src/tools/runner.js';
import { run } from '../../../src/tools/text-similarity/core.js';
import { meta } from '../../../src/tools/text-similarity/meta.js';
import { exampleCases, exampleInput, expectExampleOutput } from '../support.js';
import { apiRefusal } from '../support.js';

describe('text-similarity examples', () => {
  it.each(exampleCases(meta))('%s', (_title, example) => {
    expectExampleOutput(example, run(exampleInput(meta, example)));
  });
});

describe('text-similarity', () => {
  it('says it is lexical, not semantic, in its name, description and output', () => {
    expect(meta.name).toMatch(/lexical, not semantic/);
    expect(meta.description).toMatch(/[Ll]exical, not semantic/);
    expect(run({ textA: 'a', textB: 'b' }).note).toMatch(/^Lexical similarity, not semantic/);
  });

  it('gives identical texts 1, is symmetric, and ignores case, stop words and word forms', () => {
    const text = 'Rivers flood the farms every spring.';
    expect(run({ textA: text, textB: text })).toMatchObject({ cosine: 1, jaccard: 1 });
    expect(run({ textA: 'The RIVER floods a farm', textB: 'rivers flooding farms' })).toMatchObject({ cosine: 1, jaccard: 1 });
    const ab = run({ textA: 'red apples and green pears', textB: 'green apples and yellow bananas' });
    const ba = run({ textA: 'green apples and yellow bananas', textB: 'red apples and green pears' });
    expect([ab.cosine, ab.jaccard]).toEqual([ba.cosine, ba.jaccard]);
    expect(ab.jaccard).toBeCloseTo(2 / 6, 3);
  });

  it('scores 0 when either text has no content words', () => {
    expect(run({ textA: '', textB: 'words here' })).toMatchObject({ cosine: 0, jaccard: 0, sharedTerms: [] });
    expect(run({ textA: 'the and of', textB: 'the and of' })).toMatchObject({ cosine: 0, jaccard: 0 });
  });

  it('runs through the API and refuses a missing second text', async () => {
    expect(await runTool('text-similarity', { textA: 'cats', textB: 'cat' })).toMatchObject({ cosine: 1 });
    expect((await apiRefusal('text-similarity', { textA: 'x' })).code).toBe('validation_failed');
  });
});
