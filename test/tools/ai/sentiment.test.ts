import { describe, expect, it } from 'vitest';
import { runTool } from '../../../src/tools/runner.js';
import { run } from '../../../src/tools/sentiment/core.js';
import { meta } from '../../../src/tools/sentiment/meta.js';
import { exampleCases, exampleInput, expectExampleOutput } from '../support.js';
import { apiRefusal } from '../support.js';

describe('sentiment examples', () => {
  it.each(exampleCases(meta))('%s', (_title, example) => {
    expectExampleOutput(example, run(exampleInput(meta, example)));
  });
});

describe('sentiment', () => {
  it('scores clearly positive and negative texts by their sign, and per word', () => {
    const good = run({ text: 'What a wonderful, happy, excellent day!' });
    expect(good).toMatchObject({ label: 'positive', negative: [] });
    expect(good.positive.sort()).toEqual(['excellent', 'happy', 'wonderful']);
    expect(good.comparative).toBeCloseTo(good.score / 6, 3);
    expect(run({ text: 'Terrible, horrible, awful.' })).toMatchObject({ label: 'negative' });
  });

  it('is neutral, without warnings, for empty, short and neutral text', () => {
    for (const text of ['', 'ok', 'The meeting is at noon in room four.']) {
      const output = run({ text });
      expect(output).toMatchObject({ score: 0, label: 'neutral' });
      expect(output.warnings).toBeUndefined();
    }
  });

  it('treats words like __proto__ and constructor as ordinary words', () => {
    expect(run({ text: '__proto__ constructor toString hasOwnProperty love' })).toMatchObject({ score: 3, positive: ['love'] });
  });

  it('runs through the API and refuses a missing text', async () => {
    expect(await runTool('sentiment', { text: 'I love it' })).toMatchObject({ score: 3, label: 'positive' });
    expect((await apiRefusal('sentiment', {})).code).toBe('validation_failed');
    expect((await apiRefusal('sentiment', { text: 'x', language: 'de' })).code).toBe('validation_failed');
  });
});
