import { describe, expect, it } from 'vitest';
import { runTool } from '../../../src/tools/runner.js';
import { run } from '../../../src/tools/keywords/core.js';
import { meta } from '../../../src/tools/keywords/meta.js';
import { exampleCases, exampleInput, expectExampleOutput } from '../support.js';
import { apiRefusal } from '../support.js';

describe('keywords examples', () => {
  it.each(exampleCases(meta))('%s', (_title, example) => {
    expectExampleOutput(example, run(exampleInput(meta, example)));
  });
});

describe('keywords', () => {
  const text =
    'The river floods every spring. River floods damage farms, and farmers rebuild their farms after the floods. The same river gives the farms water in summer, so farmers stay near the river.';

  it('counts word forms together under their commonest spelling, and never stop words', () => {
    const output = run({ text });
    expect(output.keywords.slice(0, 3)).toEqual([
      { term: 'river', count: 4, score: expect.any(Number) },
      { term: 'floods', count: 3, score: expect.any(Number) },
      { term: 'farms', count: 3, score: expect.any(Number) },
    ]);
    expect(output.keywords.map((k) => k.term)).not.toContain('the');
    expect(output.phrases[0]).toMatchObject({ phrase: 'river floods', count: 2 });
  });

  it('never joins a phrase across punctuation', () => {
    const output = run({ text: 'Apples, oranges. Apples, oranges. Apples, oranges and many more fruit words to pass the minimum length here.' });
    expect(output.phrases.map((p) => p.phrase)).not.toContain('apples oranges');
  });

  it('respects the limit and warns for text that is not English', () => {
    expect(run({ text, limit: 2 }).keywords).toHaveLength(2);
    const german = run({ text: 'Der Fluss überflutet jeden Frühling die Felder. Die Bauern bauen ihre Höfe nach der Flut wieder auf, und der Fluss gibt im Sommer Wasser.' });
    expect(german.warnings?.[0]).toMatch(/German/);
  });

  it('returns empty lists for empty and numeric text', () => {
    expect(run({ text: '' })).toMatchObject({ keywords: [], phrases: [] });
    expect(run({ text: '1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21' })).toMatchObject({ keywords: [], phrases: [] });
  });

  it('runs through the API and refuses a bad limit', async () => {
    expect(await runTool('keywords', { text })).toMatchObject({ keywords: expect.any(Array) });
    expect((await apiRefusal('keywords', { text, limit: 0 })).code).toBe('validation_failed');
  });
});
