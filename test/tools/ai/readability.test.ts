import { describe, expect, it } from 'vitest';
import { runTool } from '../../../src/tools/runner.js';
import { run } from '../../../src/tools/readability/core.js';
import { meta } from '../../../src/tools/readability/meta.js';
import { exampleCases, exampleInput, expectExampleOutput, toolRefusal } from '../support.js';
import { apiRefusal } from '../support.js';

describe('readability examples', () => {
  it.each(exampleCases(meta))('%s', (_title, example) => {
    expectExampleOutput(example, run(exampleInput(meta, example)));
  });
});

describe('readability', () => {
  it('applies the published formulas to known counts', () => {
    // 6 words, 1 sentence, 6 syllables, 17 letters, no complex words.
    const output = run({ text: 'The cat sat on the mat.' });
    expect(output).toMatchObject({ words: 6, sentences: 1, syllables: 6, letters: 17, complexWords: 0 });
    expect(output.fleschReadingEase).toBeCloseTo(206.835 - 1.015 * 6 - 84.6, 1);
    expect(output.fleschKincaidGrade).toBeCloseTo(0.39 * 6 + 11.8 - 15.59, 1);
    expect(output.gunningFog).toBeCloseTo(0.4 * 6, 1);
    expect(output.colemanLiau).toBeCloseTo(0.0588 * (1700 / 6) - 0.296 * (100 / 6) - 15.8, 1);
    expect(output.automatedReadabilityIndex).toBeCloseTo(4.71 * (17 / 6) + 0.5 * 6 - 21.43, 1);
  });

  it('warns about SMOG only once the text is long enough for the other formulas', () => {
    const text = 'The committee reviewed the annual budget carefully before the meeting. '.repeat(12);
    const output = run({ text });
    expect(output.words).toBe(120);
    expect(output.warnings).toEqual([expect.stringMatching(/SMOG was calibrated on 30 sentences; with 12/)]);
  });

  it('refuses text with no words', async () => {
    for (const text of ['', '   ', '123 456 !!!']) expect((await toolRefusal(() => run({ text }))).details.field).toBe('text');
  });

  it('runs through the API: 422 for text without words', async () => {
    expect(await runTool('readability', { text: 'The cat sat on the mat.' })).toMatchObject({ words: 6 });
    expect((await apiRefusal('readability', { text: '...' })).code).toBe('validation_failed');
  });
});
